/* parse.y — the Mosaic grammar (pure bison, locations), LANGUAGE.md §1–6.
 *
 * Builds the AST of parser/ast.h through the ast_* constructors (and a few
 * static builders below for declarations), so each rule is one line.  The
 * whole language is parsed — actors, places, effects, layouts and pools —
 * even where the checker refuses a construct for now: the grammar is the
 * language's, not the current compiler's.
 *
 * Separators: statements, members and declarations end at NEWLINE (made by
 * the scanner only where a statement can end, Go's rule) or `;`.  A block's
 * last statement needs none before `}`, and stray separators are allowed.
 *
 * Angle brackets are settled by the scanner: PLACE_LT ... ANGLE_CLOSE is a
 * place list, FUT_LT ... ANGLE_CLOSE the argument of Fut, LT/GT are the
 * comparisons.  So the grammar is LALR(1) with no conflict (%expect 0); the
 * one precedence trick is `new C` before `(`, which always takes the
 * parentheses as the constructor's arguments.
 *
 * Errors: E0002 "expected X, Y or Z, found 'tok'" (yyreport_syntax_error,
 * with LAC so that the expected set is exact; expression starters,
 * statement starters, declarations and binary operators are named as
 * groups so the list stays short).  Recovery happens at statement, member
 * and declaration level (sync on a separator or `}`; a `{ ... }` met while
 * skipping is parsed as a block, so braces stay balanced), and a broken
 * header (`def`, `class`, `if`, `while`, `for`) skips to its body, which
 * is still parsed.  A declaration inside a block or class body is parsed
 * (error productions) and reported once, as the missing `}` it usually
 * is.  A syntax error right after a lexical error is not reported (the
 * scanner already said it), nor are two at the same place.  So every
 * error is reported, each once, with few cascades.
 */

%code top {
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
}

%code requires {
#include <stdbool.h>
#include <stdint.h>
#include "support/diag.h"
#include "parser/ast.h"

#ifndef YY_TYPEDEF_YY_SCANNER_T
#define YY_TYPEDEF_YY_SCANNER_T
typedef void *yyscan_t;
#endif

typedef struct ParseState ParseState;

/* A member of a class body. */
typedef struct ParseMember {
    FieldDecl *field;
    FuncDecl *method;
} ParseMember;

/* Spans are Locs: from the first symbol's start to the last one's end; an
 * empty rule sits at the end of what precedes it. */
#define YYLLOC_DEFAULT(Cur, Rhs, N)                                           \
    do {                                                                      \
        if (N) {                                                              \
            (Cur).file = YYRHSLOC(Rhs, 1).file;                               \
            (Cur).start = YYRHSLOC(Rhs, 1).start;                             \
            (Cur).end = YYRHSLOC(Rhs, N).end;                                 \
        } else {                                                              \
            (Cur).file = YYRHSLOC(Rhs, 0).file;                               \
            (Cur).start = (Cur).end = YYRHSLOC(Rhs, 0).end;                   \
        }                                                                     \
    } while (0)
}

%code provides {
int yylex(YYSTYPE *yylval, YYLTYPE *yylloc, yyscan_t scanner);
}

%code {
#include "support/arena.h"
#include "lexer/lexer.h"
#include "parser/parser.h"

/* A declaration met where only statements or members may be. */
typedef struct NestedDecl {
    Loc loc;                /* its keyword */
    const char *what, *where;
} NestedDecl;

struct ParseState {
    Program *program;
    Loc last_error;         /* never two syntax errors at one place */
    bool has_error;
    /* Nested declarations are reported at the end: only the first if the
     * file ended inside a block (a missing `}` nests every later
     * declaration, and that is one mistake), none after a stray `}` or
     * inside a `{ ... }` that error recovery skipped (its kind is
     * unknown), else all of them. */
    VEC(NestedDecl) nested;
    /* After `interface Shape {`, `match x {` and the like: the braced
     * groups the foreign constructs open, [start, end), whose syntax
     * errors would only repeat the first one (quiet_group). */
    VEC(Loc) quiet;
};

static void yyerror(YYLTYPE *loc, yyscan_t scanner, ParseState *ps, const char *msg);
static bool syntax_error(ParseState *ps, Loc loc, const char *fmt, ...) DIAG_PRINTF(3, 4);
static Name mk_name(const char *text, Loc loc);
static void add_decl(ParseState *ps, DeclKind kind, void *decl);
static FuncDecl *mk_func(Loc loc, Name name, NameVec type_params, NameVec place_params,
                         ParamVec params, TypeExpr *result, EffectDecl *effects, Stmt *body);
static ClassDecl *mk_class(Loc loc, bool active, Name name, NameVec *type_params,
                           NameVec *place_params, ClassDecl *body);
static ClassDecl *add_member(ClassDecl *cls, ParseMember m);
static FieldDecl *mk_field(Loc loc, bool is_var, Name name, TypeExpr *type, Expr *init);
static Param *mk_param(Name name, TypeExpr *type);
static EffectDecl *add_effect(ParseState *ps, EffectDecl *eff, Loc loc,
                              EffectClause which, PlaceVec places);
static LayoutSpec *mk_layout_name(Loc loc, Name name);
static LayoutSpec *add_cluster(LayoutSpec *spec, Loc loc, NameVec fields);
static PoolDecl *mk_pool(ParseState *ps, Loc loc, Name name, TypeExpr *type,
                         LayoutSpec *layout, Name *on_kw, PlaceExpr *on);
static void nested_decl(ParseState *ps, Loc loc, const char *what, const char *where);
static void drop_nested(ParseState *ps, Loc span);
static Stmt *mk_assign(ParseState *ps, Loc loc, Expr *target, bool compound, BinaryOp op,
                       Expr *value);
static StmtVec push_stmt(StmtVec v, Stmt *s);
static PlaceExpr *mk_node_place(Loc loc, Expr *k);
static TypeExpr *literal_places(ParseState *ps, TypeExpr *t);
static PlaceVec literal_place_vec(ParseState *ps, PlaceVec v);
static PlaceExpr *literal_place(ParseState *ps, PlaceExpr *p);
static PlaceExpr *one_place(Loc loc, PlaceVec places, const char *what);
static Expr *mk_int(Loc loc, uint64_t value, bool too_big, bool after_minus);
static Expr *check_int(Expr *e);
}

%define api.pure full
%define api.location.type {Loc}
%locations
%define parse.error custom
%define parse.lac full
%expect 0
%param {yyscan_t scanner}
%parse-param {ParseState *ps}

%initial-action {
    @$ = (Loc){ps->program->file, 0, 0};
}

%union {
    const char *ident;
    struct { uint64_t value; bool too_big, after_minus; } int_lit;
    double float_lit;
    struct { const char *bytes; size_t len; } str_lit;
    Name name;
    Expr *expr;
    Stmt *stmt;
    TypeExpr *type;
    PlaceExpr *place;
    ExprVec exprs;
    TypeExprVec types;
    StmtVec stmts;
    PlaceVec places;
    NameVec names;
    Param *param;
    ParamVec params;
    EffectDecl *effects;
    FuncDecl *func;
    ClassDecl *cls;
    ParseMember member;
    LayoutSpec *layout;
    LayoutDecl *layout_decl;
    PoolDecl *pool;
    PoolVec pools;
    bool flag;
    BinaryOp binop;
    EffectClause effect_kind;
    struct { ExprVec keys, values; } entries;
}

%token <ident> IDENT "identifier"
%token <int_lit> INT "integer literal"
%token <float_lit> FLOAT "float literal"
%token <str_lit> STRING "string literal"
%token NEWLINE "newline"

%token ACTIVE "'active'" AND "'and'" BREAK "'break'" CLASS "'class'"
%token CONTINUE "'continue'" DEF "'def'" ELSE "'else'" FALSE "'false'"
%token FOR "'for'" GET "'get'" HERE "'here'" IF "'if'" IN "'in'"
%token LAYOUT "'layout'" LET "'let'" LOCAL "'local'" NEW "'new'"
%token NODE "'node'" NOT "'not'" NULL_ "'null'" OR "'or'" POOL "'pool'"
%token READS "'reads'" REC "'rec'" RETURN "'return'" SENDS "'sends'"
%token THIS "'this'" TRUE "'true'" UNIT "'unit'" VAL "'val'" VAR "'var'"
%token WHILE "'while'" WRITES "'writes'"

%token LPAREN "'('" RPAREN "')'" LBRACK "'['" RBRACK "']'"
%token LBRACE "'{'" RBRACE "'}'" COMMA "','" DOT "'.'" DOTDOT "'..'"
%token COLON "':'" SEMI "';'" QUESTION "'?'" BANG "'!'"
%token ASSIGN "'='" PLUS_ASSIGN "'+='" MINUS_ASSIGN "'-='" STAR_ASSIGN "'*='"
%token SLASH_ASSIGN "'/='" PERCENT_ASSIGN "'%='"
%token EQ "'=='" NE "'!='" LT "'<'" LE "'<='" GT "'>'" GE "'>='"
%token PLUS "'+'" MINUS "'-'" STAR "'*'" SLASH "'/'" PERCENT "'%'"
%token AMP "'&'" PIPE "'|'" CARET "'^'" SHL "'<<'" SHR "'>>'"
%token PLACE_LT "'<' (place list)" FUT_LT "'Fut<'" ANGLE_CLOSE "closing '>'"
%token MAP_LT "'Map<'" MAP_LBRACE "'{' (map literal)"

/* Loosest first (LANGUAGE.md §3).  NEW_BARE < LPAREN, LBRACK: see primary. */
%left OR
%left AND
%precedence NOT
%nonassoc EQ NE LT LE GT GE
%left PIPE
%left CARET
%left AMP
%left SHL SHR
%left PLUS MINUS
%left STAR SLASH PERCENT
%precedence UMINUS
%precedence GET
%precedence NEW_BARE
%precedence LPAREN LBRACK

%type <name> name
%type <expr> expr postfix primary opt_init
%type <exprs> args expr_list
%type <entries> map_entries
%type <type> map_type
%type <stmt> stmt block if_stmt simple_stmt
%type <stmts> items
%type <type> type opt_type opt_result class_type
%type <place> place
%type <places> places
%type <names> opt_type_params opt_place_params names
%type <types> types
%type <params> params param_list
%type <param> param
%type <effects> opt_effects effects
%type <effect_kind> effect_kind
%type <func> func
%type <cls> members class_body class_decl
%type <layout_decl> layout_decl
%type <member> member
%type <layout> layout_spec clusters
%type <pool> pool_decl
%type <pools> pool_list
%type <binop> compound_op
%type <flag> var_or_val

%%

/* program = { decl sep } */
program
    : decls
    | decls decl
    ;

decls
    : %empty
    | decls sep
    | decls decl sep
    | decls error sep
    | decls error block                     { drop_nested(ps, @3); (void)$3; }
    ;

/* Error recovery: at statement level a recovered error re-arms reporting
 * at once (yyerrok), since each line is its own statement; at member and
 * declaration level it does not, so that the lines of a body cut loose by a
 * stray `}` — which fail on their first token — give one error, not one
 * per line (bison stays silent until three tokens have been shifted). */

sep : NEWLINE | SEMI ;

decl
    : func                                  { add_decl(ps, DECL_FUNC, $1); }
    | class_decl                            { add_decl(ps, DECL_CLASS, $1); }
    | layout_decl                           { add_decl(ps, DECL_LAYOUT, $1); }
    | POOL pool_list
        {
            for (size_t i = 0; i < $2.len; i++)
                add_decl(ps, DECL_POOL, $2.items[i]);
        }
    ;

class_decl
    : CLASS name opt_type_params opt_place_params class_body
        { $$ = mk_class(@$, false, $2, &$3, &$4, $5); }
    | ACTIVE CLASS name opt_type_params opt_place_params class_body
        { $$ = mk_class(@$, true, $3, &$4, &$5, $6); }
    | CLASS error class_body                { $$ = NULL; (void)$3; }
    | ACTIVE CLASS error class_body         { $$ = NULL; (void)$4; }
    ;

layout_decl
    : LAYOUT name COLON name ASSIGN layout_spec
        {
            $$ = ARENA_NEW(LayoutDecl);
            *$$ = (LayoutDecl){@$, $2, $4, $6};
        }
    ;

name : IDENT                                { $$ = mk_name($1, @1); } ;

/* def f[T]<p, q>(x: T, ...): R effects { ... } */
func
    : DEF name opt_type_params opt_place_params LPAREN params RPAREN opt_result opt_effects block
        { $$ = mk_func(@$, $2, $3, $4, $6, $8, $9, $10); }
    | DEF error block                       { $$ = NULL; (void)$3; }
    ;

/* [T, U]: the type parameters of a generic class or function (§11) */
opt_type_params
    : %empty                                { $$ = (NameVec){0}; }
    | LBRACK names RBRACK                   { $$ = $2; }
    ;

opt_place_params
    : %empty                                { $$ = (NameVec){0}; }
    | PLACE_LT names ANGLE_CLOSE            { $$ = $2; }
    ;

names
    : name                                  { $$ = (NameVec){0}; VEC_PUSH($$, $1); }
    | names COMMA name                      { $$ = $1; VEC_PUSH($$, $3); }
    ;

params
    : %empty                                { $$ = (ParamVec){0}; }
    | param_list
    | param_list COMMA
    ;

param_list
    : param                                 { $$ = (ParamVec){0}; VEC_PUSH($$, $1); }
    | param_list COMMA param                { $$ = $1; VEC_PUSH($$, $3); }
    ;

param : name COLON type                     { $$ = mk_param($1, $3); } ;

opt_result
    : %empty                                { $$ = NULL; }
    | COLON type                            { $$ = $2; }
    ;

/* `local`, or any of reads(...) writes(...) sends(...) */
opt_effects
    : %empty                                { $$ = NULL; }
    | LOCAL                                 { $$ = add_effect(ps, NULL, @1, EFFECT_LOCAL, (PlaceVec){0}); }
    | effects
    ;

effects
    : effect_kind LPAREN places RPAREN          { $$ = add_effect(ps, NULL, @$, $1, $3); }
    | effects effect_kind LPAREN places RPAREN  { $$ = add_effect(ps, $1, @$, $2, $4); }
    ;

effect_kind
    : READS                                 { $$ = EFFECT_READS; }
    | WRITES                                { $$ = EFFECT_WRITES; }
    | SENDS                                 { $$ = EFFECT_SENDS; }
    ;

/* class bodies: members separated like statements */
class_body
    : LBRACE members RBRACE                 { $$ = $2; }
    | LBRACE members member RBRACE          { $$ = add_member($2, $3); }
    | LBRACE members error RBRACE           { $$ = $2; }
    ;

members
    : %empty                                { $$ = ARENA_NEW(ClassDecl); }
    | members sep                           { $$ = $1; }
    | members member sep                    { $$ = add_member($1, $2); }
    | members error sep                     { $$ = $1; }
    | members error block                   { $$ = $1; drop_nested(ps, @3); (void)$3; }
    ;

member
    : var_or_val name COLON type opt_init
        { $$ = (ParseMember){mk_field(@$, $1, $2, $4, $5), NULL}; }
    | func                                  { $$ = (ParseMember){NULL, $1}; }
    | class_decl        { nested_decl(ps, @$, "a class", "a class body"); $$ = (ParseMember){0}; }
    | layout_decl       { nested_decl(ps, @$, "a layout", "a class body"); $$ = (ParseMember){0}; }
    | POOL pool_list    { nested_decl(ps, @$, "a pool", "a class body"); $$ = (ParseMember){0}; }
    ;

var_or_val : VAR { $$ = true; } | VAL { $$ = false; } ;

opt_init
    : %empty                                { $$ = NULL; }
    | ASSIGN expr                           { $$ = $2; }
    ;

/* layout specs: a name (aos, soa, a layout) or rec{..} + rec{..} */
layout_spec
    : name                                  { $$ = mk_layout_name(@$, $1); }
    | clusters
    ;

clusters
    : REC LBRACE names RBRACE               { $$ = add_cluster(NULL, @$, $3); }
    | clusters PLUS REC LBRACE names RBRACE { $$ = add_cluster($1, @3, $5); $$->loc = @$; }
    ;

/* pool p: C<p, ...> layout L on node(0), q: ... */
pool_list
    : pool_decl                             { $$ = (PoolVec){0}; VEC_PUSH($$, $1); }
    | pool_list COMMA pool_decl             { $$ = $1; VEC_PUSH($$, $3); }
    ;

pool_decl
    : name COLON type                       { $$ = mk_pool(ps, @$, $1, $3, NULL, NULL, NULL); }
    | name COLON type LAYOUT layout_spec    { $$ = mk_pool(ps, @$, $1, $3, $5, NULL, NULL); }
    | name COLON type name place            { $$ = mk_pool(ps, @$, $1, $3, NULL, &$4, $5); }
    | name COLON type LAYOUT layout_spec name place
        { $$ = mk_pool(ps, @$, $1, $3, $5, &$6, $7); }
    ;

/* ---- types and places ---------------------------------------------- */

type
    : class_type                            { $$ = literal_places(ps, $1); }
    | UNIT                                  { $$ = ast_type_unit(@$); }
    | LBRACK type RBRACK                    { $$ = ast_type_array(@$, $2, NULL); }
    | LBRACK type RBRACK PLACE_LT places ANGLE_CLOSE
        { $$ = ast_type_array(@$, $2, literal_place(ps, one_place(@5, $5, "an array"))); }
    | FUT_LT type ANGLE_CLOSE               { $$ = ast_type_fut(@$, $2); }
    | map_type
    | map_type PLACE_LT places ANGLE_CLOSE
        { $$ = $1; VEC_PUSH($$->places, literal_place(ps, one_place(@3, $3, "a map")));
          $$->has_places = true; $$->loc.end = @4.end; }
    | POOL name                             { $$ = ast_type_pool(@$, $2); }
    | POOL name LBRACK types RBRACK
        { $$ = ast_type_pool(@$, $2); $$->targs = $4; $$->has_targs = true; }
    ;

map_type
    : MAP_LT type COMMA type ANGLE_CLOSE    { $$ = ast_type_map(@$, $2, $4, NULL); }
    ;

class_type
    : name %prec NEW_BARE                   { $$ = ast_type_named(@$, $1, (PlaceVec){0}, false); }
    | name PLACE_LT places ANGLE_CLOSE      { $$ = ast_type_named(@$, $1, $3, true); }
    | name LBRACK types RBRACK              { $$ = ast_type_generic(@$, $1, $3, (PlaceVec){0}, false); }
    | name LBRACK types RBRACK PLACE_LT places ANGLE_CLOSE
        { $$ = ast_type_generic(@$, $1, $3, $6, true); }
    ;

/* type arguments: Stack[int], Pair[int, [string]] */
types
    : type                                  { $$ = (TypeExprVec){0}; VEC_PUSH($$, $1); }
    | types COMMA type                      { $$ = $1; VEC_PUSH($$, $3); }
    ;

opt_type
    : %empty                                { $$ = NULL; }
    | COLON type                            { $$ = $2; }
    ;

places
    : place                                 { $$ = (PlaceVec){0}; VEC_PUSH($$, $1); }
    | places COMMA place                    { $$ = $1; VEC_PUSH($$, $3); }
    ;

place
    : HERE                                  { $$ = ast_place(@$, PLACE_HERE, NULL, 0); }
    | IDENT                                 { $$ = ast_place(@$, PLACE_NAME, $1, 0); }
    | QUESTION                              { $$ = ast_place(@$, PLACE_UNKNOWN, NULL, 0); }
    | NODE LPAREN expr RPAREN               { $$ = mk_node_place(@$, $3); }
    ;

/* ---- statements ----------------------------------------------------- */

/* block = '{' { [stmt] sep } [stmt] '}' ; the closing brace is kept */
block
    : LBRACE items RBRACE                   { $$ = ast_block(@$, $2, @3); }
    | LBRACE items stmt RBRACE              { $$ = ast_block(@$, push_stmt($2, $3), @4); }
    | LBRACE items error RBRACE             { $$ = ast_block(@$, $2, @4); }
    ;

items
    : %empty                                { $$ = (StmtVec){0}; }
    | items sep                             { $$ = $1; }
    | items stmt sep                        { $$ = push_stmt($1, $2); }
    | items error sep                       { $$ = $1; yyerrok; }
    | items error block                     { $$ = $1; (void)$3; }
    ;

stmt
    : simple_stmt
    | if_stmt
    | WHILE expr block                      { $$ = ast_while(@$, $2, $3); }
    | WHILE error block                     { $$ = NULL; (void)$3; }
    | FOR name IN expr DOTDOT expr block    { $$ = ast_for_range(@$, $2, $4, $6, $7); }
    | FOR name IN expr block                { $$ = ast_for_in(@$, $2, $4, $5); }
    | FOR error block                       { $$ = NULL; (void)$3; }
    | block
    | func              { nested_decl(ps, @$, "a function", "a block"); $$ = NULL; }
    | class_decl        { nested_decl(ps, @$, "a class", "a block"); $$ = NULL; }
    | layout_decl       { nested_decl(ps, @$, "a layout", "a block"); $$ = NULL; }
    ;

simple_stmt
    : LET name opt_type ASSIGN expr         { $$ = ast_let(@$, $2, false, $3, $5); }
    | VAR name opt_type ASSIGN expr         { $$ = ast_let(@$, $2, true, $3, $5); }
    | VAR name COLON type                   { $$ = ast_let(@$, $2, true, $4, NULL); }
    | expr                                  { $$ = ast_expr_stmt(@$, $1); }
    | expr ASSIGN expr                      { $$ = mk_assign(ps, @$, $1, false, BIN_ADD, $3); }
    | expr compound_op expr                 { $$ = mk_assign(ps, @$, $1, true, $2, $3); }
    | BREAK                                 { $$ = ast_break(@$); }
    | CONTINUE                              { $$ = ast_continue(@$); }
    | RETURN                                { $$ = ast_return(@$, NULL); }
    | RETURN expr                           { $$ = ast_return(@$, $2); }
    | POOL pool_list
        {
            for (size_t i = 0; i < $2.len; i++)
                $2.items[i]->is_local = true;
            $$ = ast_pool_stmt(@$, $2);
        }
    ;

compound_op
    : PLUS_ASSIGN                           { $$ = BIN_ADD; }
    | MINUS_ASSIGN                          { $$ = BIN_SUB; }
    | STAR_ASSIGN                           { $$ = BIN_MUL; }
    | SLASH_ASSIGN                          { $$ = BIN_DIV; }
    | PERCENT_ASSIGN                        { $$ = BIN_REM; }
    ;

/* if c { } [else if ... | else { }]  — `} else` on one line */
if_stmt
    : IF expr block                         { $$ = ast_if(@$, $2, $3, NULL); }
    | IF expr block ELSE block              { $$ = ast_if(@$, $2, $3, $5); }
    | IF expr block ELSE if_stmt            { $$ = ast_if(@$, $2, $3, $5); }
    | IF error block                        { $$ = NULL; (void)$3; }
    | IF error block ELSE block             { $$ = NULL; (void)$3; (void)$5; }
    | IF error block ELSE if_stmt           { $$ = NULL; (void)$3; (void)$5; }
    ;

/* ---- expressions (precedence above) --------------------------------- */

expr
    : expr OR expr                          { $$ = ast_binary(@$, BIN_OR, $1, $3); }
    | expr AND expr                         { $$ = ast_binary(@$, BIN_AND, $1, $3); }
    | NOT expr                              { $$ = ast_unary(@$, UN_NOT, $2); }
    | expr EQ expr                          { $$ = ast_binary(@$, BIN_EQ, $1, $3); }
    | expr NE expr                          { $$ = ast_binary(@$, BIN_NE, $1, $3); }
    | expr LT expr                          { $$ = ast_binary(@$, BIN_LT, $1, $3); }
    | expr LE expr                          { $$ = ast_binary(@$, BIN_LE, $1, $3); }
    | expr GT expr                          { $$ = ast_binary(@$, BIN_GT, $1, $3); }
    | expr GE expr                          { $$ = ast_binary(@$, BIN_GE, $1, $3); }
    | expr PIPE expr                        { $$ = ast_binary(@$, BIN_BITOR, $1, $3); }
    | expr CARET expr                       { $$ = ast_binary(@$, BIN_BITXOR, $1, $3); }
    | expr AMP expr                         { $$ = ast_binary(@$, BIN_BITAND, $1, $3); }
    | expr SHL expr                         { $$ = ast_binary(@$, BIN_SHL, $1, $3); }
    | expr SHR expr                         { $$ = ast_binary(@$, BIN_SHR, $1, $3); }
    | expr PLUS expr                        { $$ = ast_binary(@$, BIN_ADD, $1, $3); }
    | expr MINUS expr                       { $$ = ast_binary(@$, BIN_SUB, $1, check_int($3)); }
    | expr STAR expr                        { $$ = ast_binary(@$, BIN_MUL, $1, $3); }
    | expr SLASH expr                       { $$ = ast_binary(@$, BIN_DIV, $1, $3); }
    | expr PERCENT expr                     { $$ = ast_binary(@$, BIN_REM, $1, $3); }
    | MINUS expr %prec UMINUS               { $$ = ast_unary(@$, UN_NEG, $2); }
    | GET expr                              { $$ = ast_get(@$, $2); }
    | postfix
    ;

postfix
    : primary
    | postfix DOT name                      { $$ = ast_field(@$, $1, $3); }
    | postfix DOT GET       /* m.get(k, d): a method, though `get` is a keyword */
        { $$ = ast_field(@$, $1, mk_name(intern_cstr("get"), @3)); }
    | postfix LPAREN args RPAREN            { $$ = ast_call(@$, $1, $3); }
    | postfix BANG name LPAREN args RPAREN  { $$ = ast_send(@$, $1, $3, $5); }
    | postfix LBRACK expr RBRACK            { $$ = ast_index(@$, $1, $3); }
    ;

/* `new C (` always takes the parentheses as C's arguments (NEW_BARE <
 * LPAREN), never as a call of the new object; `new C [` likewise opens
 * C's type arguments (NEW_BARE < LBRACK), never an index. */
primary
    : INT                                   { $$ = mk_int(@$, $1.value, $1.too_big, $1.after_minus); }
    | FLOAT                                 { $$ = ast_float(@$, $1); }
    | STRING                                { $$ = ast_string(@$, $1.bytes, $1.len); }
    | TRUE                                  { $$ = ast_bool(@$, true); }
    | FALSE                                 { $$ = ast_bool(@$, false); }
    | NULL_                                 { $$ = ast_null(@$); }
    | THIS                                  { $$ = ast_this(@$); }
    | HERE                                  { $$ = ast_here(@$); }
    | IDENT                                 { $$ = ast_name(@$, $1); }
    | LPAREN expr RPAREN                    { $$ = $2; }
    | LBRACK RBRACK                         { $$ = ast_array_lit(@$, (ExprVec){0}); }
    | LBRACK expr_list RBRACK               { $$ = ast_array_lit(@$, $2); }
    | LBRACK expr_list COMMA RBRACK         { $$ = ast_array_lit(@$, $2); }
    | NEW class_type %prec NEW_BARE         { $$ = ast_new(@$, $2, (ExprVec){0}, false); }
    | NEW class_type LPAREN args RPAREN     { $$ = ast_new(@$, $2, $4, true); }
    | NEW LBRACK type RBRACK LPAREN expr RPAREN
        { $$ = ast_new_array(@$, $3, $6); }
    | NEW map_type %prec NEW_BARE           { $$ = ast_new_map(@$, $2); }
    | NEW map_type LPAREN RPAREN            { $$ = ast_new_map(@$, $2); }
    | MAP_LBRACE RBRACE                     { $$ = ast_map_lit(@$, (ExprVec){0}, (ExprVec){0}); }
    | MAP_LBRACE map_entries RBRACE         { $$ = ast_map_lit(@$, $2.keys, $2.values); }
    | MAP_LBRACE map_entries COMMA RBRACE   { $$ = ast_map_lit(@$, $2.keys, $2.values); }
    ;

map_entries
    : expr COLON expr
        { $$.keys = (ExprVec){0}; $$.values = (ExprVec){0};
          VEC_PUSH($$.keys, $1); VEC_PUSH($$.values, $3); }
    | map_entries COMMA expr COLON expr
        { $$ = $1; VEC_PUSH($$.keys, $3); VEC_PUSH($$.values, $5); }
    ;

args
    : %empty                                { $$ = (ExprVec){0}; }
    | expr_list
    | expr_list COMMA
    ;

expr_list
    : expr                                  { $$ = (ExprVec){0}; VEC_PUSH($$, $1); }
    | expr_list COMMA expr                  { $$ = $1; VEC_PUSH($$, $3); }
    ;

%%

/* ---- helpers: declarations ------------------------------------------- */

static Name mk_name(const char *text, Loc loc)
{
    return (Name){text, loc};
}

static void add_decl(ParseState *ps, DeclKind kind, void *decl)
{
    if (!decl)
        return;     /* a declaration lost to a syntax error */
    Decl *d = ARENA_NEW(Decl);
    d->kind = kind;
    switch (kind) {
    case DECL_FUNC: d->u.func = decl; break;
    case DECL_CLASS: d->u.cls = decl; break;
    case DECL_LAYOUT: d->u.layout = decl; break;
    case DECL_POOL: d->u.pool = decl; break;
    }
    VEC_PUSH(ps->program->decls, d);
}

static FuncDecl *mk_func(Loc loc, Name name, NameVec type_params, NameVec place_params,
                         ParamVec params, TypeExpr *result, EffectDecl *effects, Stmt *body)
{
    FuncDecl *f = ARENA_NEW(FuncDecl);
    f->loc = loc;
    f->name = name;
    f->type_params = type_params;
    f->place_params = place_params;
    f->params = params;
    f->result = result;
    f->effects = effects;
    f->body = body;
    return f;
}

/* `body` is the ClassDecl the members were collected into. */
static ClassDecl *mk_class(Loc loc, bool active, Name name, NameVec *type_params,
                           NameVec *place_params, ClassDecl *body)
{
    ClassDecl *c = body;
    c->loc = loc;
    c->name = name;
    c->type_params = *type_params;
    c->is_active = active;
    c->place_params = *place_params;
    c->has_place_params = place_params->len > 0;
    return c;
}

static ClassDecl *add_member(ClassDecl *cls, ParseMember m)
{
    if (m.field) {
        m.field->owner = cls;
        m.field->index = (int)cls->fields.len;
        VEC_PUSH(cls->fields, m.field);
    }
    if (m.method) {
        m.method->owner = cls;
        VEC_PUSH(cls->methods, m.method);
    }
    return cls;
}

static FieldDecl *mk_field(Loc loc, bool is_var, Name name, TypeExpr *type, Expr *init)
{
    FieldDecl *f = ARENA_NEW(FieldDecl);
    f->loc = loc;
    f->is_var = is_var;
    f->name = name;
    f->type = type;
    f->init = init;
    return f;
}

static Param *mk_param(Name name, TypeExpr *type)
{
    Param *p = ARENA_NEW(Param);
    p->name = name;
    p->type = type;
    return p;
}

/* Adds one clause (`local`, or reads/writes/sends with its places). */
static EffectDecl *add_effect(ParseState *ps, EffectDecl *eff, Loc loc,
                              EffectClause which, PlaceVec places)
{
    literal_place_vec(ps, places);
    if (!eff)
        eff = ARENA_NEW(EffectDecl);
    eff->loc = loc;
    PlaceVec *into = which == EFFECT_READS ? &eff->reads : which == EFFECT_WRITES ? &eff->writes
                   : which == EFFECT_SENDS ? &eff->sends : NULL;
    if (!into)
        eff->is_local = true;
    else
        for (size_t i = 0; i < places.len; i++)
            VEC_PUSH(*into, places.items[i]);
    return eff;
}

static LayoutSpec *mk_layout_name(Loc loc, Name name)
{
    LayoutSpec *s = ARENA_NEW(LayoutSpec);
    s->loc = loc;
    s->name = name;
    return s;
}

static LayoutSpec *add_cluster(LayoutSpec *spec, Loc loc, NameVec fields)
{
    if (!spec) {
        spec = ARENA_NEW(LayoutSpec);
        spec->loc = loc;
    }
    Cluster *c = ARENA_NEW(Cluster);
    c->loc = loc;
    c->fields = fields;
    VEC_PUSH(spec->clusters, c);
    return spec;
}

/* `on` is no keyword (LANGUAGE.md §1 does not list it): the grammar reads
 * any identifier there and this checks it is `on`. */
static PoolDecl *mk_pool(ParseState *ps, Loc loc, Name name, TypeExpr *type,
                         LayoutSpec *layout, Name *on_kw, PlaceExpr *on)
{
    if (on_kw && strcmp(on_kw->text, "on") != 0)
        syntax_error(ps, on_kw->loc, "expected 'layout', 'on', ',' or newline, found '%s'",
                     on_kw->text);
    PoolDecl *p = ARENA_NEW(PoolDecl);
    literal_place(ps, on);
    p->loc = loc;
    p->name = name;
    p->type = type;
    p->layout = layout;
    p->on = on;
    return p;
}

/* node(k): a literal k is kept as a number; anything else is kept as an
 * expression, allowed only in `new A<node(e)>` (literal_place). */
static PlaceExpr *mk_node_place(Loc loc, Expr *k)
{
    if (k->kind == EX_INT) {
        /* A too-big literal was reported by mk_int. */
        int64_t n = k->u.int_lit.too_big ? 0 : (int64_t)k->u.int_lit.value;
        return ast_place(loc, PLACE_NODE, NULL, n);
    }
    PlaceExpr *p = ast_place(loc, PLACE_NODE, NULL, 0);
    p->node_expr = k;
    return p;
}

/* Places outside `new` are static: node(k) takes a literal there.  The
 * offending place becomes `?` so that later phases see a valid term. */
static PlaceExpr *literal_place(ParseState *ps, PlaceExpr *p)
{
    if (p && p->kind == PLACE_NODE && p->node_expr) {
        syntax_error(ps, p->node_expr->loc,
                     "node(...) takes an integer literal here (an expression is allowed only "
                     "in 'new')");
        p->node_expr = NULL;
        p->kind = PLACE_UNKNOWN;
    }
    return p;
}

/* An array or map type has one place (LANGUAGE.md §2, §9): more is the
 * wrong number of place arguments, E0301 (§7), and the first one stands. */
static PlaceExpr *one_place(Loc loc, PlaceVec places, const char *what)
{
    if (places.len != 1)
        diag_error(loc, DIAG_E0301, "wrong number of place arguments: %s type has one "
                   "place, not %zu", what, places.len);
    return places.items[0];
}

static PlaceVec literal_place_vec(ParseState *ps, PlaceVec v)
{
    for (size_t i = 0; i < v.len; i++)
        literal_place(ps, v.items[i]);
    return v;
}

static TypeExpr *literal_places(ParseState *ps, TypeExpr *t)
{
    literal_place_vec(ps, t->places);
    return t;
}

static void report_nested(ParseState *ps, NestedDecl d)
{
    syntax_error(ps, d.loc, "%s cannot be declared inside %s (is a '}' missing before it?)",
                 d.what, d.where);
}

/* `def`, `class`, `layout` or `pool` inside a block or class body (loc
 * spans the whole declaration, which is parsed and dropped). */
static void nested_decl(ParseState *ps, Loc loc, const char *what, const char *where)
{
    const char *text = src_text(loc.file);
    uint32_t end = loc.start;
    while (end < loc.end && text[end] >= 'a' && text[end] <= 'z')
        end++;
    NestedDecl d = {{loc.file, loc.start, end}, what, where};
    VEC_PUSH(ps->nested, d);
}

/* Forgets the nested declarations inside span (a skipped block). */
static void drop_nested(ParseState *ps, Loc span)
{
    while (ps->nested.len > 0 && ps->nested.items[ps->nested.len - 1].loc.start >= span.start)
        ps->nested.len--;
}

/* The magnitude of INT64_MIN, the one too-big literal a minus may take. */
#define INT64_MIN_MAGNITUDE ((uint64_t)INT64_MAX + 1)

static void too_big_error(Loc loc)
{
    const char *text = src_text(loc.file) + loc.start;
    diag_error(loc, DIAG_E0001, "integer literal '%.*s' does not fit in 64 bits",
               (int)(loc.end - loc.start), text);
}

/* A literal above INT64_MAX is an error (E0001), reported here so that it
 * comes with the other lexical errors, except 9223372036854775808 right
 * after a `-`: under a unary minus ast_unary folds it into INT64_MIN, and
 * after a binary minus check_int reports it. */
static Expr *mk_int(Loc loc, uint64_t value, bool too_big, bool after_minus)
{
    if (too_big && !(after_minus && value == INT64_MIN_MAGNITUDE))
        too_big_error(loc);
    return ast_int(loc, value, too_big);
}

/* The right operand of a binary minus: `a - 9223372036854775808`. */
static Expr *check_int(Expr *e)
{
    if (e->kind == EX_INT && e->u.int_lit.too_big && e->u.int_lit.value == INT64_MIN_MAGNITUDE)
        too_big_error(e->loc);
    return e;
}

/* Only names, fields and elements can be assigned (ast.h's contract). */
static Stmt *mk_assign(ParseState *ps, Loc loc, Expr *target, bool compound, BinaryOp op,
                       Expr *value)
{
    if (target->kind != EX_NAME && target->kind != EX_FIELD && target->kind != EX_INDEX) {
        syntax_error(ps, target->loc,
                     "cannot assign to this expression (expected a variable, field or element)");
        return ast_expr_stmt(loc, value);
    }
    return ast_assign(loc, target, compound, op, value);
}

/* Statements lost to syntax errors are NULL and left out. */
static StmtVec push_stmt(StmtVec v, Stmt *s)
{
    if (s)
        VEC_PUSH(v, s);
    return v;
}

/* ---- syntax errors --------------------------------------------------- */

/* Reports E0002 unless one was already reported at loc; says whether it
 * printed. */
static bool syntax_error(ParseState *ps, Loc loc, const char *fmt, ...)
{
    if (ps->has_error && ps->last_error.file == loc.file && ps->last_error.start == loc.start)
        return false;
    for (size_t i = 0; i < ps->quiet.len; i++)
        if (ps->quiet.items[i].file == loc.file && loc.start >= ps->quiet.items[i].start &&
            loc.start < ps->quiet.items[i].end)
            return false;
    ps->has_error = true;
    ps->last_error = loc;
    char buf[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    diag_error(loc, DIAG_E0002, "%s", buf);
    return true;
}

/* Only for bison's own failures (the parse stack limit). */
static void yyerror(YYLTYPE *loc, yyscan_t scanner, ParseState *ps, const char *msg)
{
    (void)scanner;
    if (strstr(msg, "exhausted"))
        syntax_error(ps, *loc, "program nested too deeply to parse");
    else
        syntax_error(ps, *loc, "%s", msg);
}

/* Groups of expected tokens named as one, so that messages stay short. */
static bool starts_expr(yysymbol_kind_t s)
{
    switch (s) {
    case YYSYMBOL_IDENT: case YYSYMBOL_INT: case YYSYMBOL_FLOAT: case YYSYMBOL_STRING:
    case YYSYMBOL_TRUE: case YYSYMBOL_FALSE: case YYSYMBOL_NULL_: case YYSYMBOL_THIS:
    case YYSYMBOL_HERE: case YYSYMBOL_NEW: case YYSYMBOL_LPAREN: case YYSYMBOL_LBRACK:
    case YYSYMBOL_MINUS: case YYSYMBOL_NOT: case YYSYMBOL_GET: case YYSYMBOL_MAP_LBRACE:
        return true;
    default:
        return false;
    }
}

static bool starts_stmt(yysymbol_kind_t s)
{
    switch (s) {
    case YYSYMBOL_LET: case YYSYMBOL_VAR: case YYSYMBOL_IF: case YYSYMBOL_WHILE:
    case YYSYMBOL_FOR: case YYSYMBOL_BREAK: case YYSYMBOL_CONTINUE: case YYSYMBOL_RETURN:
    case YYSYMBOL_POOL: case YYSYMBOL_LBRACE:
        return true;
    default:
        return starts_expr(s);
    }
}

/* Operators that may follow an expression (binary and postfix). */
static bool is_operator(yysymbol_kind_t s)
{
    switch (s) {
    case YYSYMBOL_OR: case YYSYMBOL_AND: case YYSYMBOL_EQ: case YYSYMBOL_NE:
    case YYSYMBOL_LT: case YYSYMBOL_LE: case YYSYMBOL_GT: case YYSYMBOL_GE:
    case YYSYMBOL_PIPE: case YYSYMBOL_CARET: case YYSYMBOL_AMP: case YYSYMBOL_SHL:
    case YYSYMBOL_SHR: case YYSYMBOL_PLUS: case YYSYMBOL_MINUS: case YYSYMBOL_STAR:
    case YYSYMBOL_SLASH: case YYSYMBOL_PERCENT: case YYSYMBOL_DOT: case YYSYMBOL_BANG:
    case YYSYMBOL_LPAREN: case YYSYMBOL_LBRACK:
        return true;
    default:
        return false;
    }
}

static bool starts_decl(yysymbol_kind_t s)
{
    return s == YYSYMBOL_DEF || s == YYSYMBOL_CLASS || s == YYSYMBOL_ACTIVE
        || s == YYSYMBOL_LAYOUT || s == YYSYMBOL_POOL;
}

static bool is_compound_assign(yysymbol_kind_t s)
{
    return s == YYSYMBOL_PLUS_ASSIGN || s == YYSYMBOL_MINUS_ASSIGN || s == YYSYMBOL_STAR_ASSIGN
        || s == YYSYMBOL_SLASH_ASSIGN || s == YYSYMBOL_PERCENT_ASSIGN;
}

static bool has_symbol(const yysymbol_kind_t *v, int n, yysymbol_kind_t s)
{
    for (int i = 0; i < n; i++)
        if (v[i] == s)
            return true;
    return false;
}

/* How the offending token is named: its text, or newline / end of file. */
static void describe_found(char *buf, size_t size, yysymbol_kind_t tok, Loc loc)
{
    if (tok == YYSYMBOL_YYEOF) {
        snprintf(buf, size, "end of file");
        return;
    }
    if (tok == YYSYMBOL_NEWLINE) {
        snprintf(buf, size, "newline");
        return;
    }
    const char *text = src_text(loc.file) + loc.start;
    size_t len = loc.end - loc.start;
    /* A long literal is shown by its start; 24 bytes tell it apart. */
    if (len > 24)
        snprintf(buf, size, "'%.*s...'", 21, text);
    else
        snprintf(buf, size, "'%.*s'", (int)len, text);
}

/* At a closer of the wrong kind, a newline or the end of the file, where
 * the innermost open bracket's closer was possible: a note at that bracket. */
static void note_unclosed(yyscan_t scanner, yysymbol_kind_t tok, const yysymbol_kind_t *expected,
                          int n)
{
    if (tok != YYSYMBOL_RPAREN && tok != YYSYMBOL_RBRACK && tok != YYSYMBOL_RBRACE &&
        tok != YYSYMBOL_NEWLINE && tok != YYSYMBOL_YYEOF)
        return;
    Loc open;
    char kind;
    if (!lex_innermost_open(scanner, &open, &kind))
        return;
    yysymbol_kind_t closer = kind == '(' ? YYSYMBOL_RPAREN
                           : kind == '[' ? YYSYMBOL_RBRACK : YYSYMBOL_RBRACE;
    if (closer != tok && has_symbol(expected, n, closer))
        diag_note(open, "this '%c' is not closed", kind);
}

/* The end of the group that starts at text[open] (a `{`, `[` or `(`):
 * the offset just past its closer, or `length` when it is not closed.
 * Strings and comments are skipped as the lexer reads them (LANGUAGE.md
 * §1). */
static size_t group_end(const char *text, size_t length, size_t open)
{
    char opener = text[open], closer = opener == '{' ? '}' : opener == '[' ? ']' : ')';
    int depth = 0;
    for (size_t i = open; i < length; i++) {
        char c = text[i];
        if (c == '"') {
            for (i++; i < length && text[i] != '"' && text[i] != '\n'; i++)
                if (text[i] == '\\')
                    i++;
        } else if (c == '/' && i + 1 < length && text[i + 1] == '/') {
            while (i < length && text[i] != '\n')
                i++;
        } else if (c == '/' && i + 1 < length && text[i + 1] == '*') {
            for (i += 2; i + 1 < length && !(text[i] == '*' && text[i + 1] == '/'); i++)
                ;
            i++;
        } else if (c == opener) {
            depth++;
        } else if (c == closer && --depth == 0) {
            return i + 1;
        }
    }
    return length;
}

/* A newline after an element of a list that goes on, in `(` or `[`:
 *
 *     let xs = [
 *       1,
 *       2        <- the line ends the statement here (LANGUAGE.md §1)
 *     ]
 *
 * says how to go on (a ',' to insert, for tools), and hides the rest of the
 * list from the parser, so that its closer is not one more error.
 * Returns whether it did, the list being closed further on. */
static bool newline_in_list(yyscan_t scanner, yysymbol_kind_t tok, const yysymbol_kind_t *expected,
                            int n, Loc at)
{
    Loc open;
    char kind;
    if (tok != YYSYMBOL_NEWLINE || !has_symbol(expected, n, YYSYMBOL_COMMA) ||
        !lex_innermost_open(scanner, &open, &kind) || kind == '{')
        return false;
    const char *text = src_text(at.file);
    size_t end = group_end(text, src_length(at.file), open.start);
    if (end <= at.start || text[end - 1] != (kind == '[' ? ']' : ')'))
        return false;
    Loc insert = {at.file, at.start, at.start};
    diag_suggest(LOC_NONE, insert, ",",
                 "a newline after an element ends the statement (the rule Go uses): end the "
                 "line with ',' to go on with the %s on the next line",
                 kind == '[' ? "list" : "arguments");
    lex_hide(scanner, at.start, (uint32_t)end);
    return true;
}

/* `interface Shape {`, `match x {`: the rest of the construct, up to the
 * `}` that closes the `{` on the word's line, reports no more syntax
 * errors — they would all be the first one again, line by line.  The
 * parser is not even given what is between the braces: it recovers from
 * the error by reading `{ }`, an empty block, and goes on after it. */
static void quiet_group(ParseState *ps, yyscan_t scanner, Loc word)
{
    const char *text = src_text(word.file);
    size_t length = src_length(word.file), open = word.end;
    while (open < length && text[open] != '{' && text[open] != '\n')
        open++;
    if (open >= length || text[open] != '{')
        return;
    size_t end = group_end(text, length, open);
    Loc group = {word.file, word.start, (uint32_t)end};
    VEC_PUSH(ps->quiet, group);
    if (text[end - 1] == '}')
        lex_hide(scanner, (uint32_t)open + 1, (uint32_t)end - 1);
}

/* Words of other languages that are plain names in Mosaic, met where a
 * declaration or a statement was expected: what Mosaic offers instead.
 * The words that open a braced construct quiet its body (quiet_group). */
static bool note_foreign_word(ParseState *ps, yyscan_t scanner, Loc at)
{
    static const struct { const char *word, *note; bool braced; } words[] = {
        {"interface", "Mosaic has no interfaces: a class's methods are called by name on "
                      "values of its type", true},
        {"trait", "Mosaic has no traits: a class's methods are called by name on values of "
                  "its type", true},
        {"impl", "Mosaic has no 'impl' blocks: methods are declared inside their class", true},
        {"enum", "Mosaic has no enums: use int constants (or strings) instead", true},
        {"struct", "Mosaic has no structs: write 'class Name { var field: T }'", true},
        {"match", "Mosaic has no 'match': write 'if ... else if ... else'", true},
        {"switch", "Mosaic has no 'switch': write 'if ... else if ... else'", true},
        {"fn", "Mosaic has no lambdas or function values: declare a function with 'def'", false},
        {"lambda", "Mosaic has no lambdas or function values: declare a function with 'def'",
         false},
        {"function", "functions are declared with 'def': 'def name(x: int): int { ... }'", false},
        {"func", "functions are declared with 'def': 'def name(x: int): int { ... }'", false},
        {"import", "a Mosaic program is one file: there is nothing to import", false},
        {"const", "Mosaic has no 'const': write 'let name = value'", false},
    };
    const char *word = src_text(at.file) + at.start;
    size_t len = at.end - at.start;
    for (size_t i = 0; i < sizeof words / sizeof words[0]; i++)
        if (strlen(words[i].word) == len && memcmp(words[i].word, word, len) == 0) {
            diag_note(LOC_NONE, "%s", words[i].note);
            if (words[i].braced)
                quiet_group(ps, scanner, at);
            return true;
        }
    return false;
}

/* `fn(a: int) => a + 1`, `func(x) { ... }`, `lambda x: x`: a word that
 * begins an anonymous function, earlier on the line of an error. */
static bool after_lambda_word(const char *text, size_t at)
{
    static const char *const words[] = {"fn", "func", "function", "lambda"};
    size_t line = at;
    while (line > 0 && text[line - 1] != '\n')
        line--;
    for (size_t i = line; i < at; i++) {
        if (i > line && ((text[i - 1] >= 'a' && text[i - 1] <= 'z') || text[i - 1] == '_'))
            continue;
        for (size_t w = 0; w < sizeof words / sizeof words[0]; w++) {
            size_t n = strlen(words[w]);
            if (i + n <= at && memcmp(text + i, words[w], n) == 0 &&
                (text[i + n] == '(' || text[i + n] == ' '))
                return true;
        }
    }
    return false;
}

/* A note under a syntax error that a habit from another language explains
 * (C's `&&`, `||`, `!`, `++`, `=` in a condition; a keyword as a name). */
static void note_habit(ParseState *ps, yyscan_t scanner, yysymbol_kind_t tok, Loc loc,
                       bool want_expr, bool want_op, bool want_name)
{
    const char *text = src_text(loc.file);
    size_t length = src_length(loc.file);
    /* `&&` is `&` then `&`: the error is at either */
    char next = loc.end < length ? text[loc.end] : '\0';
    char prev = loc.start > 0 ? text[loc.start - 1] : '\0';
    bool doubled = next == text[loc.start] || prev == text[loc.start];
    /* `i++` and `i--` leave an operator waiting for its operand, which the
     * error is at or after */
    size_t at = tok == YYSYMBOL_PLUS || tok == YYSYMBOL_MINUS ? loc.end : loc.start;
    while (at > 0 && (text[at - 1] == ' ' || text[at - 1] == '\t' || text[at - 1] == '\n' ||
                      text[at - 1] == '\r'))
        at--;
    if (want_expr && at >= 2 && text[at - 1] == text[at - 2] &&
        (text[at - 1] == '+' || text[at - 1] == '-')) {
        diag_note(LOC_NONE, "Mosaic has no '%c%c': write 'x %c= 1'", text[at - 1], text[at - 1],
                  text[at - 1]);
        return;
    }
    if (tok == YYSYMBOL_IDENT && note_foreign_word(ps, scanner, loc))
        return;
    /* `match x {`: the error is at x, the word is the one before it */
    size_t w = loc.start;
    while (w > 0 && (text[w - 1] == ' ' || text[w - 1] == '\t'))
        w--;
    size_t w_end = w;
    while (w > 0 && ((text[w - 1] >= 'a' && text[w - 1] <= 'z') || text[w - 1] == '_'))
        w--;
    Loc before = {loc.file, (uint32_t)w, (uint32_t)w_end};
    if (tok == YYSYMBOL_IDENT && w < w_end && note_foreign_word(ps, scanner, before))
        return;
    /* `switch (x) {`: the error is further on, the word begins the line */
    size_t first = loc.start;
    while (first > 0 && text[first - 1] != '\n')
        first--;
    while (first < loc.start && (text[first] == ' ' || text[first] == '\t'))
        first++;
    size_t first_end = first;
    while (first_end < loc.start && text[first_end] >= 'a' && text[first_end] <= 'z')
        first_end++;
    Loc line_word = {loc.file, (uint32_t)first, (uint32_t)first_end};
    if (first_end > first && first_end < loc.start &&
        (first_end != w_end || tok != YYSYMBOL_IDENT) && note_foreign_word(ps, scanner, line_word))
        return;
    bool arrow = (tok == YYSYMBOL_GT && prev == '=') || (tok == YYSYMBOL_ASSIGN && next == '>');
    if (arrow || after_lambda_word(text, loc.start) ||
        (tok == YYSYMBOL_PIPE && want_expr && !doubled)) {
        diag_note(LOC_NONE, "Mosaic has no lambdas or function values%s: declare a "
                  "function with 'def' and call it by name", arrow ? " ('=>')" : "");
        return;
    }
    /* the two characters of `&&` or `||`, which a suggestion replaces */
    Loc pair = loc;
    if (next == text[loc.start]) pair.end = loc.end + 1;
    else if (loc.start > 0) pair.start = loc.start - 1;
    switch (tok) {
    case YYSYMBOL_AMP:
        if (doubled)
            diag_suggest(LOC_NONE, pair, "and", "Mosaic writes 'and' where C writes '&&'");
        return;
    case YYSYMBOL_PIPE:
        if (doubled)
            diag_suggest(LOC_NONE, pair, "or", "Mosaic writes 'or' where C writes '||'");
        return;
    case YYSYMBOL_BANG:
        if (want_expr)
            diag_suggest(LOC_NONE, loc, "not ", "Mosaic writes 'not x' where C writes '!x' "
                         "('!' sends a message: 'actor!method()')");
        return;
    case YYSYMBOL_ASSIGN:
        if (want_op)
            diag_suggest(LOC_NONE, loc, "==", "to compare, write '=='; '=' assigns, as a "
                         "statement");
        return;
    default:
        break;
    }
    if (want_name && tok == YYSYMBOL_MAP_LT) {
        diag_note(LOC_NONE, "'Map' is the built-in type Map<K, V> and cannot be a name");
        return;
    }
    if (want_name && tok != YYSYMBOL_IDENT && loc.end > loc.start &&
        ((text[loc.start] >= 'a' && text[loc.start] <= 'z') ||
         (text[loc.start] >= 'A' && text[loc.start] <= 'Z')))
        diag_note(LOC_NONE, "'%.*s' is a keyword of Mosaic and cannot be a name",
                  (int)(loc.end - loc.start), text + loc.start);
}

/* E0002: expected X, Y or Z, found 'tok'.  Groups: a place where any
 * expression may start says "expression" (any statement: "statement"), a
 * place where any binary operator may follow says "operator", and the
 * compound assignments are implied by '=', and the top level expects a
 * "declaration". */
static int yyreport_syntax_error(const yypcontext_t *ctx, yyscan_t scanner, ParseState *ps)
{
    enum { MAX_NAMED = 6 };
    if (lex_after_error(scanner))
        return 0;
    yysymbol_kind_t expected[YYNTOKENS];
    int n = yypcontext_expected_tokens(ctx, expected, YYNTOKENS);
    if (n < 0)
        return n;
    Loc loc = *yypcontext_location(ctx);
    char found[64];
    describe_found(found, sizeof found, yypcontext_token(ctx), loc);

    bool any_stmt = has_symbol(expected, n, YYSYMBOL_LET);
    bool any_expr = has_symbol(expected, n, YYSYMBOL_IDENT) && has_symbol(expected, n, YYSYMBOL_INT);
    bool any_op = has_symbol(expected, n, YYSYMBOL_PLUS) && has_symbol(expected, n, YYSYMBOL_STAR);
    /* Declarations inside blocks and class bodies are error productions
     * (nested_decl): not named there. */
    bool any_member = has_symbol(expected, n, YYSYMBOL_VAL);
    bool any_decl = has_symbol(expected, n, YYSYMBOL_LAYOUT) && !any_stmt && !any_member;
    bool hide_decl = any_stmt || any_member;
    const char *names[YYNTOKENS + 3];
    int k = 0;
    for (int i = 0; i < n; i++) {
        yysymbol_kind_t s = expected[i];
        if ((any_stmt && starts_stmt(s)) || (any_expr && starts_expr(s)) ||
            (any_op && is_operator(s)) || is_compound_assign(s) ||
            ((any_decl || hide_decl) && starts_decl(s) && !(any_member && s == YYSYMBOL_DEF)))
            continue;
        names[k++] = yysymbol_name(s);
    }
    if (any_stmt)
        names[k++] = "statement";
    else if (any_expr)
        names[k++] = "expression";
    if (any_op)
        names[k++] = "operator";
    if (any_decl)
        names[k++] = "declaration";

    char msg[512];
    size_t used = 0;
    if (k == 0 || k > MAX_NAMED) {
        used = (size_t)snprintf(msg, sizeof msg, "unexpected %s", found);
    } else {
        used = (size_t)snprintf(msg, sizeof msg, "expected ");
        for (int i = 0; i < k && used < sizeof msg; i++)
            used += (size_t)snprintf(msg + used, sizeof msg - used, "%s%s",
                                     i == 0 ? "" : i == k - 1 ? " or " : ", ", names[i]);
        if (used < sizeof msg)
            snprintf(msg + used, sizeof msg - used, ", found %s", found);
    }
    if (yypcontext_token(ctx) == YYSYMBOL_YYEOF && has_symbol(expected, n, YYSYMBOL_RBRACE)) {
        if (ps->nested.len > 0)
            return 0;   /* the missing `}` is reported at the first nesting */
    }
    if (!syntax_error(ps, loc, "%s", msg))
        return 0;
    if (yypcontext_token(ctx) == YYSYMBOL_ELSE)
        diag_note(loc, "'else' must be on the same line as the '}' before it");
    if (!newline_in_list(scanner, yypcontext_token(ctx), expected, n, loc))
        note_unclosed(scanner, yypcontext_token(ctx), expected, n);
    note_habit(ps, scanner, yypcontext_token(ctx), loc, any_expr, any_op,
               has_symbol(expected, n, YYSYMBOL_IDENT) && !any_expr);
    return 0;
}

/* ---- entry points ---------------------------------------------------- */

const char *lex_token_name(int token)
{
    return yysymbol_name(YYTRANSLATE(token));
}

Program *parse_program(uint32_t file)
{
    Program *program = ARENA_NEW(Program);
    program->file = file;
    ParseState ps = {.program = program, .last_error = LOC_NONE};
    void *scanner = lex_open(file);
    yyparse(scanner, &ps);
    /* Unbalanced braces explain nested declarations: a missing `}` once
     * (reported at the first), a stray `}` entirely (reported where the
     * parser met it). */
    int depth = lex_brace_depth(scanner);
    lex_close(scanner);
    size_t report = depth > 0 ? 1 : depth < 0 ? 0 : ps.nested.len;
    for (size_t i = 0; i < ps.nested.len && i < report; i++)
        report_nested(&ps, ps.nested.items[i]);
    return program;
}
