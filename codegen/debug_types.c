/* debug_types.c — the DWARF types of Mosaic values, for -g.
 *
 * A debugger reads a value through its type, so each type says exactly
 * how the code generator and the runtime lay the value out
 * (stdlib/mosaic_rt.h), in C's terms, which gdb and lldb speak fluently:
 *
 *   int, float, bool   base types "int" (signed, 64 bits), "float" (64-bit
 *                      IEEE), "bool" (one byte; an i1 local is stored as
 *                      a byte 0/1 too)
 *   string             typedef "string" = struct MosString * with members
 *                      length, bytes (char *, so even without the
 *                      pretty-printer gdb shows the text of `*s`) and
 *                      buffer
 *   [T]                typedef "[T]" = pointer to struct "[T]" {length,
 *                      data (T *), capacity, elem_size, elem_kind}: `print
 *                      *xs.data@xs.length` lists the elements
 *   C (class, actor)   typedef "C" = pointer to struct "C", its fields at
 *                      the offsets the target's data layout gives the
 *                      LLVM struct (class.c); an actor's runtime header
 *                      and the stored place values are left out (gaps)
 *   Map<K, V>          typedef = pointer to struct "Map<K, V>" {size,
 *                      node}: the two words mosaic_rt.h makes part of the
 *                      ABI; the entries are the runtime's business, which
 *                      the pretty-printer reads through the runtime's own
 *                      debug information (stdlib/mosaic-gdb.py)
 *   Fut<T>             typedef = pointer to struct "Fut<T>" {state, value}
 *                      (rt_actors.h's RtFuture: state 1 once fulfilled)
 *   a pooled object    its reference is the object's number in the pool
 *                      (1 for P[0]), not an address: typedef "C<P>" of an
 *                      unsigned "pool object" number.  Its fields are in
 *                      the pool's clusters, as many places as the layout
 *                      has, which no struct can describe; inside its own
 *                      methods they are shown as variables (debug.c).
 *
 * The typedef names are the types as Mosaic writes them (ty_name, without
 * places; a pooled object's with them), so that `whatis x` answers in the
 * language of the program, and the pretty-printer recognises Mosaic's
 * values by them.  Whether a class type's home is a pool depends on the
 * instance being compiled (reach.c), so types are made for an instance;
 * a field of a class whose place is a place parameter is described as an
 * object address, pooled or not (a class's struct is one for all its
 * instances).
 *
 * LLVM uniques type metadata by content, so asking twice for a type costs
 * a lookup; only class structs are remembered (di_classes), because they
 * may refer to themselves (class Node { var next: Node }): the struct is
 * entered as a temporary first, and its members made after.
 */
#include <stddef.h>
#include <string.h>

#include "cg_internal.h"
#include "../support/assert.h"
#include "../stdlib/mosaic_rt.h"

#define DW_TAG_structure_type 0x13
#define DW_ATE_unsigned 0x08

static LLVMMetadataRef member(Cg *cg, LLVMMetadataRef scope, const char *name,
                              uint64_t offset, uint64_t bits, LLVMMetadataRef type)
{
    return LLVMDIBuilderCreateMemberType(cg->dib, scope, name, strlen(name), cg->di_file, 0,
                                         bits, 0, offset * 8, LLVMDIFlagZero, type);
}

static LLVMMetadataRef pointer_to(Cg *cg, LLVMMetadataRef type)
{
    return LLVMDIBuilderCreatePointerType(cg->dib, type, 64, 0, 0, NULL, 0);
}

static LLVMMetadataRef typedef_of(Cg *cg, const char *name, LLVMMetadataRef type)
{
    return LLVMDIBuilderCreateTypedef(cg->dib, type, name, strlen(name), cg->di_file, 0,
                                      cg->di_cu, 0);
}

/* A struct of `size` bytes with the members given. */
static LLVMMetadataRef struct_of(Cg *cg, const char *name, uint64_t size,
                                 LLVMMetadataRef *members, unsigned n)
{
    return LLVMDIBuilderCreateStructType(cg->dib, cg->di_cu, name, strlen(name), cg->di_file,
                                         0, size * 8, 0, LLVMDIFlagZero, NULL, members, n, 0,
                                         NULL, NULL, 0);
}

/* struct MosString *: the runtime's own struct, member for member. */
static LLVMMetadataRef string_type(Cg *cg)
{
    LLVMMetadataRef bytes = pointer_to(cg, cg->di_char);
    LLVMMetadataRef m[3] = {
        member(cg, cg->di_cu, "length", offsetof(MosString, length), 64, cg->di_int),
        member(cg, cg->di_cu, "bytes", offsetof(MosString, bytes), 64, bytes),
        member(cg, cg->di_cu, "buffer", offsetof(MosString, buffer), 64, cg->di_addr),
    };
    LLVMMetadataRef s = struct_of(cg, "MosString", sizeof(MosString), m, 3);
    return typedef_of(cg, "string", pointer_to(cg, s));
}

/* The type of an element as it is stored: one byte for bool, a word for
 * everything else; elem may be a pooled reference (in's shapes). */
static LLVMMetadataRef array_type(Cg *cg, const CgInst *in, const Type *t)
{
    const char *name = ty_name(t);
    LLVMMetadataRef data = pointer_to(cg, cg_debug_type(cg, in, t->elem));
    LLVMMetadataRef m[5] = {
        member(cg, cg->di_cu, "length", offsetof(MosArray, length), 64, cg->di_int),
        member(cg, cg->di_cu, "data", offsetof(MosArray, data), 64, data),
        member(cg, cg->di_cu, "capacity", offsetof(MosArray, capacity), 64, cg->di_int),
        member(cg, cg->di_cu, "elem_size", offsetof(MosArray, elem_size), 32, cg->di_word),
        member(cg, cg->di_cu, "elem_kind", offsetof(MosArray, elem_kind), 32, cg->di_word),
    };
    LLVMMetadataRef s = struct_of(cg, name, sizeof(MosArray), m, 5);
    return typedef_of(cg, name, pointer_to(cg, s));
}

/* The two words of a map that mosaic_rt.h makes part of the ABI. */
static LLVMMetadataRef map_type(Cg *cg, const Type *t)
{
    const char *name = ty_name(t);
    LLVMMetadataRef m[2] = {
        member(cg, cg->di_cu, "size", 0, 64, cg->di_int),
        member(cg, cg->di_cu, "node", 8, 64, cg->di_int),
    };
    LLVMMetadataRef s = struct_of(cg, name, 16, m, 2);
    return typedef_of(cg, name, pointer_to(cg, s));
}

/* RtFuture (rt_actors.h): a state word, then the value's 64-bit word,
 * read here as the value's own type (a bool is its first byte). */
static LLVMMetadataRef future_type(Cg *cg, const CgInst *in, const Type *t)
{
    const char *name = ty_name(t);
    LLVMMetadataRef value = t->elem && t->elem->kind != TY_UNIT ? cg_debug_type(cg, in, t->elem)
                                                                 : cg->di_int;
    LLVMMetadataRef m[2] = {
        member(cg, cg->di_cu, "state", 0, 64, cg->di_addr),
        member(cg, cg->di_cu, "value", 8, 64, value),
    };
    LLVMMetadataRef s = struct_of(cg, name, 16, m, 2);
    return typedef_of(cg, name, pointer_to(cg, s));
}

LLVMMetadataRef cg_debug_class(Cg *cg, ClassDecl *cls)
{
    LLVMMetadataRef known = cg_map_get_ptr(&cg->di_classes, cls);
    if (known)
        return known;
    CgClass *c = cg_class(cg, cls);
    const char *name = cls->name.text;
    unsigned line = 0;
    if (cls->loc.file) {
        int l, col;
        src_line_col(cls->loc.file, cls->loc.start, &l, &col);
        line = (unsigned)l;
    }
    LLVMMetadataRef temp = LLVMDIBuilderCreateReplaceableCompositeType(
        cg->dib, DW_TAG_structure_type, name, strlen(name), cg->di_cu, cg->di_file, line, 0,
        c->size * 8, 0, LLVMDIFlagZero, NULL, 0);
    cg_map_put_ptr(&cg->di_classes, cls, temp);
    size_t n = cls->fields.len;
    LLVMMetadataRef members[n + 1];
    for (size_t i = 0; i < n; i++) {
        FieldDecl *fd = cls->fields.items[i];
        uint64_t bits = fd->field_type->kind == TY_BOOL ? 8 : 64;
        members[i] = member(cg, temp, fd->name.text, cg_field_offset(cg, fd), bits,
                            cg_debug_type(cg, NULL, fd->field_type));
    }
    LLVMMetadataRef s = LLVMDIBuilderCreateStructType(
        cg->dib, cg->di_cu, name, strlen(name), cg->di_file, line, c->size * 8, 0,
        LLVMDIFlagZero, NULL, members, (unsigned)n, 0, NULL, NULL, 0);
    LLVMMetadataReplaceAllUsesWith(temp, s);
    cg_map_put_ptr(&cg->di_classes, cls, s);
    return s;
}

/* A reference to an object of a pool: its number there. */
static LLVMMetadataRef pooled_type(Cg *cg, const Type *t)
{
    static const char number[] = "pool object";
    LLVMMetadataRef base = LLVMDIBuilderCreateBasicType(cg->dib, number, sizeof number - 1, 64,
                                                        DW_ATE_unsigned, LLVMDIFlagZero);
    return typedef_of(cg, ty_show(t), base);
}

LLVMMetadataRef cg_debug_type(Cg *cg, const CgInst *in, const Type *t)
{
    ASSERT(cg->dib, "types are described under -g only");
    switch (t->kind) {
    case TY_INT:
        return cg->di_int;
    case TY_FLOAT:
        return cg->di_float;
    case TY_BOOL:
        return cg->di_bool;
    case TY_STRING:
        return string_type(cg);
    case TY_ARRAY:
        return array_type(cg, in, t);
    case TY_MAP:
        return map_type(cg, t);
    case TY_FUT:
        return future_type(cg, in, t);
    case TY_CLASS:
        if (in && cg_shape_of(in, ty_home(t)))
            return pooled_type(cg, t);
        return typedef_of(cg, ty_name(t), pointer_to(cg, cg_debug_class(cg, t->cls)));
    default:
        return cg->di_addr;
    }
}
