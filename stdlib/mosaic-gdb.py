# mosaic-gdb.py — gdb pretty-printers for programs compiled by mosaicc -g.
#
# Every executable built with -g names this file in its .debug_gdb_scripts
# section, so gdb loads it by itself once its directory is trusted:
#
#     add-auto-load-safe-path /usr/local/share/mosaic/gdb     (in ~/.gdbinit)
#
# or by hand: `source /usr/local/share/mosaic/gdb/mosaic-gdb.py`
# (docs/debugging.md).  It prints Mosaic's values as the language writes
# them:
#
#     float           2.0 (as Mosaic prints it, not gdb's 2)
#     string          "hello"
#     [T]             [1, 2, 3] (length 3)
#     an object       Counter@0x7ffff7a3e040 = {count = 5, name = "c"}
#                     (an object inside another value shows as Counter@0x…,
#                     so cycles and long chains print in one line; `print
#                     *c.next` or `print c.next` goes on)
#     Map<K, V>       {"a": 1, "b": 2} (size 2)
#     Fut<T>          Fut<int> fulfilled: 42   /   Fut<int> pending
#     pooled object   ps[3]  (object number 4 of pool ps)
#     null            null
#
# The values are recognised by their DWARF types, which mosaicc names as
# Mosaic does (codegen/debug_types.c): the typedef "string", typedefs
# "[T]", "Map<K, V>" and "Fut<T>" of pointers to structs of the same name,
# a class's typedef "C" of a pointer to its struct "C", and a pooled
# reference's typedef "C<P>" of the base type "pool object", and a float
# by its 8-byte base type "float" (C's has 4).  A string's
# layout (length at 0, bytes at 8) is part of the runtime's ABI
# (stdlib/mosaic_rt.h); a map's entries are read through the runtime's own
# debug information (struct MosMap in stdlib/map.c), and if that cannot be
# found the map shows its size only.
#
# `print/r x` prints the raw value, as always in gdb; `disable
# pretty-printer global mosaic` (or `... objfile-name mosaic`) turns these
# printers off.

import struct

import gdb
import gdb.printing


def _elements_limit():
    limit = gdb.parameter("print elements")
    return None if limit in (None, 0) else int(limit)


def _quote(data):
    """A Mosaic string literal for the bytes `data`."""
    out = []
    for ch in data.decode("utf-8", errors="backslashreplace"):
        if ch == '"' or ch == "\\":
            out.append("\\" + ch)
        elif ch == "\n":
            out.append("\\n")
        elif ch == "\t":
            out.append("\\t")
        elif ch == "\r":
            out.append("\\r")
        elif ch == "\0":
            out.append("\\0")
        elif ord(ch) < 0x20:
            out.append("\\u{%x}" % ord(ch))
        else:
            out.append(ch)
    return '"' + "".join(out) + '"'


def _string_at(address):
    """The text of the MosString at `address` (mosaic_rt.h: length, bytes)."""
    if address == 0:
        return "null"
    inferior = gdb.selected_inferior()
    length, bytes_ptr = struct.unpack("<qQ", bytes(inferior.read_memory(address, 16)))
    limit = _elements_limit()
    shown = length if limit is None else min(length, limit)
    text = _quote(bytes(inferior.read_memory(bytes_ptr, shown)) if shown > 0 else b"")
    return text + ("..." if shown < length else "")


def _address(value):
    return int(value) & ((1 << 64) - 1)


def _kind(value_type):
    """What Mosaic value a type describes: 'float', 'string', 'array',
    'map', 'future', 'object', 'pooled', or None."""
    t = value_type.unqualified()
    if t.code == gdb.TYPE_CODE_FLT and t.name == "float" and t.sizeof == 8:
        return "float"          # C's float has 4 bytes
    if t.code != gdb.TYPE_CODE_TYPEDEF or not t.name:
        return None
    name = t.name
    target = t.strip_typedefs()
    if target.code == gdb.TYPE_CODE_INT and target.name == "pool object":
        return "pooled"
    if target.code != gdb.TYPE_CODE_PTR:
        return None
    pointee = target.target().strip_typedefs()
    if pointee.code != gdb.TYPE_CODE_STRUCT:
        return None
    if name == "string" and pointee.tag == "MosString":
        return "string"
    if pointee.tag != name:
        return None
    if name.startswith("["):
        return "array"
    if name.startswith("Map<"):
        return "map"
    if name.startswith("Fut<"):
        return "future"
    return "object"


def _is_short(value_type):
    """Objects inside other values are printed short: the children of an
    object are handed to gdb as const values, which no Mosaic type is."""
    return value_type != value_type.unqualified()


def _text(value):
    """How an element of an array or a map prints: objects short."""
    if _kind(value.type) == "object":
        value = value.cast(value.type.unqualified().const())
    try:
        return value.format_string()
    except gdb.MemoryError:
        return "<unreadable>"


class FloatPrinter:
    """As Mosaic prints a float (Python's repr: 2.0, 0.1, 1e+16, nan)."""

    def __init__(self, value):
        self.value = value

    def to_string(self):
        return repr(float(self.value))


class StringPrinter:
    def __init__(self, value):
        self.value = value

    def to_string(self):
        try:
            return _string_at(_address(self.value))
        except gdb.MemoryError:
            return "<unreadable string at 0x%x>" % _address(self.value)


class ArrayPrinter:
    def __init__(self, value):
        self.value = value

    def to_string(self):
        if _address(self.value) == 0:
            return "null"
        try:
            header = self.value.dereference()
            length = int(header["length"])
            data = header["data"]
            limit = _elements_limit()
            shown = length if limit is None else min(length, limit)
            items = [_text(data[i]) for i in range(shown)]
        except gdb.MemoryError:
            return "<unreadable array at 0x%x>" % _address(self.value)
        more = ", ..." if shown < length else ""
        return "[%s%s] (length %d)" % (", ".join(items), more, length)


class _NamedPrinter:
    """A printer of a value whose type name is the Mosaic type (Counter,
    Map<string, int>, Fut<int>)."""
    def __init__(self, value):
        self.value = value
        self.name = value.type.unqualified().name


class ObjectPrinter(_NamedPrinter):
    def to_string(self):
        address = _address(self.value)
        if address == 0:
            return "null"
        return "%s@0x%x" % (self.name, address)

    def children(self):
        if _is_short(self.value.type) or _address(self.value) == 0:
            return
        fields = self.value.dereference()
        for field in fields.type.fields():
            member = fields[field.name]
            if _kind(member.type) == "object":
                member = member.cast(member.type.const())
            yield field.name, member


def _split_map_name(name):
    """("K", "V") of "Map<K, V>" (K is int, string or bool: no comma)."""
    inner = name[len("Map<"):-1]
    comma = inner.index(", ")
    return inner[:comma], inner[comma + 2:]


def _word_text(word, type_name):
    """A key or value as the runtime's collections hold it: a 64-bit word
    (mosaic_rt.h), of the Mosaic type named type_name."""
    word &= (1 << 64) - 1
    if type_name == "int":
        return str(word - (1 << 64) if word >> 63 else word)
    if type_name == "bool":
        return "true" if word & 0xFF else "false"
    if type_name == "float":
        return repr(struct.unpack("<d", struct.pack("<Q", word))[0])
    if type_name == "string":
        return _string_at(word)
    return "null" if word == 0 else "%s@0x%x" % (type_name, word)


class MapPrinter(_NamedPrinter):
    def to_string(self):
        address = _address(self.value)
        if address == 0:
            return "null"
        try:
            size = int(self.value.dereference()["size"])
        except gdb.MemoryError:
            return "<unreadable map at 0x%x>" % address
        try:
            entries = self._entries(address, size)
        except (gdb.error, gdb.MemoryError, ValueError):
            return "%s (size %d)" % (self.name, size)
        return "{%s} (size %d)" % (", ".join(entries), size)

    def _entries(self, address, size):
        key_type, value_type = _split_map_name(self.name)
        header = gdb.Value(address).cast(gdb.lookup_type("struct MosMap").pointer())
        header = header.dereference()
        # string keys: 32-byte slots; int and bool keys: 16-byte pairs; the
        # order array lists keys, and an entry is alive when its key is in a
        # slot and no later entry has it (stdlib/map.c's essay).  A string
        # entry names the map's own copy of its key, as its slot does, so
        # pointers compare; a dead one names an old copy (or the shared "",
        # which the "later entry" rule settles).
        wide = int(header["slots"]) != 0
        slots = header["slots"] if wide else header["pairs"]
        empty = None if wide else int(header["empty"])
        values = {}
        if int(slots) != 0:
            for i in range(int(header["mask"]) + 1):
                s = slots[i]
                key = int(s["key"])
                if key != (0 if wide else empty):
                    values[key] = int(s["value"])
        order = header["order"]
        live, met = [], set()
        for i in range(int(header["used"]) - 1, -1, -1):
            key = int(order[i])
            if key in values and key not in met:
                met.add(key)
                live.append(key)
        live.reverse()
        limit = _elements_limit()
        entries = []
        for key in live:
            if limit is not None and len(entries) == limit:
                entries.append("...")
                break
            entries.append("%s: %s" % (_word_text(key, key_type),
                                       _word_text(values[key], value_type)))
        return entries


class FuturePrinter(_NamedPrinter):
    def to_string(self):
        if _address(self.value) == 0:
            return "null"
        future = self.value.dereference()
        if int(future["state"].cast(gdb.lookup_type("long"))) != 1:
            return "%s pending" % self.name
        return "%s fulfilled: %s" % (self.name, _text(future["value"]))


class PooledPrinter:
    def __init__(self, value):
        self.value = value
        name = value.type.unqualified().name        # "C<P>" or "C<P, ...>"
        self.pool = name[name.index("<") + 1:].split(",")[0].rstrip(">") if "<" in name else "?"

    def to_string(self):
        number = int(self.value)
        return "null" if number == 0 else "%s[%d]" % (self.pool, number - 1)


_PRINTERS = {
    "float": FloatPrinter,
    "string": StringPrinter,
    "array": ArrayPrinter,
    "map": MapPrinter,
    "future": FuturePrinter,
    "object": ObjectPrinter,
    "pooled": PooledPrinter,
}


class MosaicPrinter(gdb.printing.PrettyPrinter):
    """Mosaic's strings, arrays, objects, maps and futures."""

    def __init__(self):
        super().__init__("mosaic")

    def __call__(self, value):
        kind = _kind(value.type)
        return _PRINTERS[kind](value) if kind else None


gdb.printing.register_pretty_printer(gdb.current_objfile(), MosaicPrinter(), replace=True)
