" Vim syntax file
" Language:    Mosaic (LANGUAGE.md §1: keywords, literals, comments)
" Filenames:   *.mos
"
" The keyword lines below hold every keyword of lexer/scan.l, each once;
" tests/driver/editors.sh checks that they still do.  Types are the
" built-in ones and any capitalised name (classes, by custom).

if exists("b:current_syntax")
  finish
endif
let s:cpo_save = &cpo
set cpo&vim

" ---- keywords ----
syn keyword mosaicConditional   if else
syn keyword mosaicRepeat        while for in
syn keyword mosaicStatement     break continue return
syn keyword mosaicDeclaration   def class let var val layout pool rec
syn keyword mosaicModifier      active
syn keyword mosaicKeyword       new get
syn keyword mosaicOperatorWord  and or not
syn keyword mosaicBoolean       true false
syn keyword mosaicNull          null
syn keyword mosaicSelf          this
syn keyword mosaicPlace         here node
syn keyword mosaicEffect        reads writes sends local
syn keyword mosaicType          unit

" ---- types: built-in names, and classes ----
syn keyword mosaicType          int float bool string Fut Map
syn match   mosaicClassName     "\<\u\w*\>"
syn match   mosaicFunctionName  "\%(\<def\s\+\)\@<=\h\w*"
syn match   mosaicClassName     "\%(\<class\s\+\)\@<=\h\w*"

" ---- literals: 42 0xff 1_000 1.5 2e10 6.02E-23, "text \n \u{1F600}" ----
syn match   mosaicNumber        "\<\d\%(_\=\d\)*\>"
syn match   mosaicNumber        "\<0[xX]\x\%(_\=\x\)*\>"
syn match   mosaicFloat         "\<\d\%(_\=\d\)*\.\d\%(_\=\d\)*\%([eE][+-]\=\d\%(_\=\d\)*\)\=\>"
syn match   mosaicFloat         "\<\d\%(_\=\d\)*[eE][+-]\=\d\%(_\=\d\)*\>"
syn match   mosaicEscape        contained "\\[ntr\\\"0]"
syn match   mosaicEscape        contained "\\u{\x\{1,6}}"
syn match   mosaicBadEscape     contained "\\[^ntr\\\"0u]"
syn region  mosaicString        start=+"+ skip=+\\\\\|\\"+ end=+"+ end=+$+ contains=mosaicEscape,mosaicBadEscape,@Spell

" ---- operators: == != <= >= << >> += -= *= /= %= .. and one-character ones ----
syn match   mosaicOperator      "==\|!=\|<=\|>=\|<<\|>>\|[-+*/%]=\|\.\.\|[-+*/%=<>!&|^?]"

" ---- comments (block comments do not nest) ----
syn keyword mosaicTodo          contained TODO FIXME XXX NOTE
syn region  mosaicComment       start="//" end="$" contains=mosaicTodo,@Spell
syn region  mosaicComment       start="/\*" end="\*/" contains=mosaicTodo,@Spell

hi def link mosaicConditional   Conditional
hi def link mosaicRepeat        Repeat
hi def link mosaicStatement     Statement
hi def link mosaicDeclaration   Keyword
hi def link mosaicModifier      StorageClass
hi def link mosaicKeyword       Keyword
hi def link mosaicOperatorWord  Operator
hi def link mosaicBoolean       Boolean
hi def link mosaicNull          Constant
hi def link mosaicSelf          Identifier
hi def link mosaicPlace         Special
hi def link mosaicEffect        PreProc
hi def link mosaicType          Type
hi def link mosaicClassName     Type
hi def link mosaicFunctionName  Function
hi def link mosaicNumber        Number
hi def link mosaicFloat         Float
hi def link mosaicEscape        SpecialChar
hi def link mosaicBadEscape     Error
hi def link mosaicString        String
hi def link mosaicOperator      Operator
hi def link mosaicTodo          Todo
hi def link mosaicComment       Comment

let b:current_syntax = "mosaic"
let &cpo = s:cpo_save
unlet s:cpo_save
