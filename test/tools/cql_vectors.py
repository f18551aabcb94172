#!/usr/bin/python3
"""
test/tools/cql_vectors.py - golden vectors for bloomcass's CQL key functions
(cassandra_key_text, cassandra_key_json, cassandra_key_parse), from an
independent reference: the DataStax Python driver (Debian's
python3-cassandra, 3.25).  The driver parses each marshal type string
(cassandra.cqltypes.lookup_casstype), serializes the values listed here
(or takes the bytes as listed), and deserializes the bytes back to Python
values; this script renders those values to the text Cassandra's
AbstractType.getString prints and to JSON, by the rules below, written
from Cassandra's serializers and Python's own types, not from bloomcass.

    /usr/bin/python3 test/tools/cql_vectors.py test/data

writes test/data/vectors/cql-keys/values.tsv and sstable-keys.tsv.  Columns:
key_type, key bytes (hex), text, JSON, and the bytes the text parses
back to ('=' when they are the key's own).

Rendering rules (the driver's value -> text):
  str                      as is
  int                      str(int)
  bool                     true / false
  float                    Java's Float/Double.toString: the shortest
                           repr (repr() for double; for float the fewest
                           %.{p}e digits that pack back to the same 4
                           bytes), at least 2 significant digits when 1
                           would do (the 2-digit %.1e form); plain for
                           1e-3 <= |x| < 1e7 ("100.0", "0.001"), else
                           d.dddE<n>; NaN, Infinity, -Infinity, -0.0
  Decimal                  str(Decimal): Python's to-scientific-string is
                           BigDecimal.toString's rule (1E+3, 0.00, 1.5E-7)
  uuid.UUID                str() (lower case)
  datetime (timestamp)     milliseconds since 1970 from the datetime
                           (integers, rounded to the ms the driver's float
                           blurs), then yyyy-mm-ddThh:mm:ss.fffZ for years
                           1..9999 and the plain number otherwise (the
                           driver raises OverflowError there: the number
                           is then the int64 of the bytes)
  util.Date                days_from_epoch -> proleptic Gregorian date,
                           ISO with Java's year rules (+yyyyy past 9999,
                           -yyyy before year 0)
  util.Time                hh:mm:ss.nnnnnnnnn
  inet (str)               Java's getHostAddress: IPv4-mapped -> IPv4,
                           IPv6 as 8 groups of hex without leading zeros
  bytes (blob)             0x + hex
  util.Duration            Cassandra's Duration.toString ("" for 0)
  list/set/map (frozen)    Cassandra's CollectionType.getString: the
                           bytes in hex (0x + hex)
  tuple, UDT               fields' text joined with ':', each escaped
                           (\\: \\@, '!' after a field ending in '\\' or
                           '!'), '@' for None; a single empty field "!"
  composite                components' text joined with ':', escaped
                           (\\:, '!' after '\\' or '!', "_" -> "_!")
JSON: int -> number; float -> number when finite and not -0.0, else a
string of its text; Decimal -> string of its text; bool -> true/false;
None -> null; list/set -> array; map -> array of [key, value]; tuple ->
array; UDT -> object by field name; everything else a string of its
text.  Strings escape '"' and '\\' with '\\', characters below U+0020 as
\\u00xx, nothing else; no spaces.
"""
import datetime
import decimal
import ipaddress
import math
import os
import struct
import sys
import uuid

from cassandra import cqltypes as ct
from cassandra import util

PV = 4
PREFIX = "org.apache.cassandra.db.marshal."
EPOCH = datetime.datetime(1970, 1, 1)


def base(t):
    """the value type under FrozenType / ReversedType"""
    while t.cassname in ("FrozenType", "ReversedType"):
        t = t.subtypes[0]
    return t


def name(t):
    n = t.cassname
    return n[len(PREFIX):] if n.startswith(PREFIX) else n


def java_fp(x, is_float):
    if math.isnan(x):
        return "NaN"
    if math.isinf(x):
        return "Infinity" if x > 0 else "-Infinity"
    if x == 0:
        return "-0.0" if math.copysign(1, x) < 0 else "0.0"
    a = abs(x)
    if is_float:
        want = struct.pack(">f", a)
        for p in range(1, 10):
            s = "%.*e" % (p - 1, a)
            try:
                if struct.pack(">f", float(s)) == want:
                    break
            except OverflowError:       # rounds past the largest float
                pass
    else:
        s = repr(a)
        s = "%.*e" % (len(decimal.Decimal(s).as_tuple().digits) - 1, a)
        assert float(s) == a
    mant, exp = s.split("e")
    digits = mant.replace(".", "")
    if len(digits) == 1:                # JDK 19: 2 digits when closer
        mant, exp = ("%.1e" % a).split("e")
        digits = mant.replace(".", "")
    digits = digits.rstrip("0") or "0"
    e = int(exp)
    sign = "-" if x < 0 else ""
    if 1e-3 <= a < 1e7:
        if e >= 0:
            ip = (digits + "0" * (e + 1))[:e + 1]
            fp = digits[e + 1:] or "0"
            return sign + ip + "." + fp
        return sign + "0." + "0" * (-e - 1) + digits
    return sign + digits[0] + "." + (digits[1:] or "0") + "E" + str(e)


def civil(days):
    """(year, month, day) of days since 1970-01-01, proleptic Gregorian,
    any year (shifting by 400-year cycles of 146097 days)"""
    o = days + datetime.date(1970, 1, 1).toordinal()
    k = 0
    while o < 1:
        o += 146097
        k -= 400
    while o > datetime.date.max.toordinal():
        o -= 146097
        k += 400
    d = datetime.date.fromordinal(o)
    return d.year + k, d.month, d.day


def java_date(days):
    y, m, d = civil(days)
    if y > 9999:
        ys = "+%d" % y
    elif y < 0:
        ys = "-%04d" % -y
    else:
        ys = "%04d" % y
    return "%s-%02d-%02d" % (ys, m, d)


def timestamp_text(value, raw):
    if isinstance(value, datetime.datetime):
        delta = value - EPOCH
        us = (delta.days * 86400 + delta.seconds) * 10**6 + delta.microseconds
        ms = (us + 500) // 1000
        assert ms == struct.unpack(">q", raw)[0], (ms, raw.hex())
    else:
        ms = struct.unpack(">q", raw)[0]
    days, rem = divmod(ms, 86400000)
    y, m, d = civil(days)
    if 1 <= y <= 9999:
        return "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ" % (y, m, d, rem // 3600000, rem // 60000 % 60,
                                                      rem // 1000 % 60, rem % 1000)
    return str(ms)


def java_inet(s):
    a = ipaddress.ip_address(s)
    if a.version == 6 and a.ipv4_mapped is not None:
        return str(a.ipv4_mapped)
    if a.version == 4:
        return str(a)
    return ":".join("%x" % int(g, 16) for g in a.exploded.split(":"))


def duration_text(v):
    months, days, nanos = v.months, v.days, v.nanoseconds
    out = "-" if (months < 0 or days < 0 or nanos < 0) else ""
    months, days, nanos = abs(months), abs(days), abs(nanos)
    if months >= 12:
        out += "%dy" % (months // 12)
    if months % 12:
        out += "%dmo" % (months % 12)
    if days:
        out += "%dd" % days
    for div, unit in ((3600 * 10**9, "h"), (60 * 10**9, "m"), (10**9, "s"), (10**6, "ms"),
                      (10**3, "us"), (1, "ns")):
        if nanos >= div:
            out += "%d%s" % (nanos // div, unit)
            nanos %= div
    return out


def escape(s, tuple_field):
    s = s.replace(":", "\\:")
    if tuple_field:
        s = s.replace("@", "\\@")
    if s and s[-1] in "\\!":
        s += "!"
    return s


def json_str(s):
    out = []
    for ch in s:
        if ch in '"\\':
            out.append("\\" + ch)
        elif ord(ch) < 0x20:
            out.append("\\u%04x" % ord(ch))
        else:
            out.append(ch)
    return '"' + "".join(out) + '"'


def empty(v):
    return v is None or v is ct.EMPTY or (isinstance(v, bytes) is False and v == ct.EMPTY)


def text_of(t, v, raw):
    """the text of value v (deserialized from raw) of type t"""
    t = base(t)
    n = name(t)
    if raw == b"" and n not in ("UTF8Type", "AsciiType", "BytesType", "DurationType"):
        return ""
    if n in ("ListType", "SetType", "MapType"):
        return "0x" + raw.hex()
    if n in ("TupleType", "UserType"):
        parts = []
        pos = 0
        for i, st in enumerate(t.subtypes):
            if pos == len(raw):
                break
            ln = struct.unpack(">i", raw[pos:pos + 4])[0]
            pos += 4
            if ln < 0:
                assert v[i] is None
                parts.append("@")
                continue
            parts.append(escape(text_of(st, v[i], raw[pos:pos + ln]), True))
            pos += ln
        if len(parts) == 1 and parts[0] == "":
            return "!"
        return ":".join(parts)
    if n == "UTF8Type" or n == "AsciiType":
        return v
    if n == "BytesType":
        return "0x" + bytes(v).hex()
    if n in ("Int32Type", "LongType", "ShortType", "ByteType", "IntegerType", "CounterColumnType"):
        return str(v)
    if n == "BooleanType":
        return "true" if v else "false"
    if n == "FloatType":
        return java_fp(v, True)
    if n == "DoubleType":
        return java_fp(v, False)
    if n == "DecimalType":
        return str(v)
    if n in ("UUIDType", "TimeUUIDType"):
        return str(v)
    if n == "LexicalUUIDType":      # the driver has no class for it: bytes
        return str(uuid.UUID(bytes=bytes(v)))
    if n in ("DateType", "TimestampType"):
        return timestamp_text(v, raw)
    if n == "SimpleDateType":
        return java_date(v.days_from_epoch)
    if n == "TimeType":
        return "%02d:%02d:%02d.%09d" % (v.hour, v.minute, v.second, v.nanosecond)
    if n == "InetAddressType":
        return java_inet(v)
    if n == "DurationType":
        return duration_text(v)
    raise ValueError("no text rule for " + n)


def json_of(t, v, raw):
    t = base(t)
    n = name(t)
    if raw == b"" and n not in ("UTF8Type", "AsciiType", "BytesType"):
        return "null"
    if n in ("ListType", "SetType"):
        elems = split_collection(raw, 1)
        return "[" + ",".join(json_of(t.subtypes[0], x, r) for x, (r,) in zip(v, elems)) + "]"
    if n == "MapType":
        elems = split_collection(raw, 2)
        items = list(v.items())
        return "[" + ",".join("[" + json_of(t.subtypes[0], k, rk) + "," + json_of(t.subtypes[1], x, rv) + "]"
                              for (k, x), (rk, rv) in zip(items, elems)) + "]"
    if n in ("TupleType", "UserType"):
        udt = n == "UserType"
        parts = []
        pos = 0
        for i, st in enumerate(t.subtypes):
            if pos == len(raw):
                break
            ln = struct.unpack(">i", raw[pos:pos + 4])[0]
            pos += 4
            val = "null" if ln < 0 else json_of(st, v[i], raw[pos:pos + max(ln, 0)])
            pos += max(ln, 0)
            parts.append((json_str(t.fieldnames[i]) + ":" if udt else "") + val)
        return ("{" if udt else "[") + ",".join(parts) + ("}" if udt else "]")
    if n in ("Int32Type", "LongType", "ShortType", "ByteType", "IntegerType", "CounterColumnType"):
        return str(v)
    if n == "BooleanType":
        return "true" if v else "false"
    if n in ("FloatType", "DoubleType"):
        s = text_of(t, v, raw)
        if math.isfinite(v) and not (v == 0 and math.copysign(1, v) < 0):
            return s
        return json_str(s)
    return json_str(text_of(t, v, raw))


def split_collection(raw, per):
    count = struct.unpack(">i", raw[:4])[0]
    pos = 4
    out = []
    for _ in range(count):
        row = []
        for _ in range(per):
            ln = struct.unpack(">i", raw[pos:pos + 4])[0]
            row.append(raw[pos + 4:pos + 4 + ln])
            pos += 4 + ln
        out.append(tuple(row))
    return out


def composite_bytes(parts):
    return b"".join(struct.pack(">H", len(p)) + p + b"\x00" for p in parts)


def key_text(t, raw):
    """the whole key: a composite's components, or one value"""
    t = base(t)
    if name(t) == "CompositeType":
        v = t.from_binary(raw, PV)
        comps = []
        pos = 0
        for st in t.subtypes:
            if pos == len(raw):
                break
            ln = struct.unpack(">H", raw[pos:pos + 2])[0]
            comps.append(raw[pos + 2:pos + 2 + ln])
            pos += 3 + ln
        texts, jsons = [], []
        for st, x, r in zip(t.subtypes, v, comps):
            s = escape(text_of(st, x, r), False)
            texts.append("_!" if s == "_" else s)
            jsons.append(json_of(st, x, r))
        return ":".join(texts), "[" + ",".join(jsons) + "]"
    try:
        v = t.from_binary(raw, PV)
    except OverflowError:
        # the driver has no datetime past years 1..9999: timestamp_text
        # takes the int64 of the bytes
        assert name(t) in ("TimestampType", "DateType")
        v = None
    return text_of(t, v, raw), "[" + json_of(t, v, raw) + "]"


def ser(tstr, value):
    return base(ct.lookup_casstype(tstr)).to_binary(value, PV)


U = uuid.UUID
D = decimal.Decimal


def decimal_bytes(unscaled, scale):
    return struct.pack(">i", scale) + ct.varint_pack(unscaled)


def date_bytes(days):
    return struct.pack(">I", (days + 2**31) % 2**32)


def vint(v):
    z = (v << 1) ^ (v >> 63)
    z &= 2**64 - 1
    for extra in range(9):
        if extra == 8 or z >> (7 * (extra + 1)) == 0:
            break
    if extra == 8:
        return b"\xff" + z.to_bytes(8, "big")
    first = ((0xff00 >> extra) & 0xff) | (z >> (8 * extra))
    return bytes([first]) + (z & ((1 << (8 * extra)) - 1)).to_bytes(extra, "big")


# (type string, key bytes, parse-back bytes or None for the same)
def vectors():
    v = []

    def add(tstr, raw, back=None):
        v.append((tstr, raw, back))

    def values(tstr, vals):
        for x in vals:
            add(tstr, ser(tstr, x))

    texts = ["", "acme", "a:b", "ends\\", "bang!", "_", "!", "@", "a\\:b", "x@y:z",
             "unicode \u00e9 \u4e2d\u6587 \U0001F600", 'quote"back\\slash', "tab\tnl\n"]
    values("org.apache.cassandra.db.marshal.UTF8Type", texts)
    values("UTF8Type", ["short prefix"])
    values("AsciiType", ["", "hello", "~!@#$%^&*()"])
    values("Int32Type", [0, 1, -1, 7, 2**31 - 1, -2**31])
    add("Int32Type", b"")
    values("LongType", [0, 1234567890123, 2**63 - 1, -2**63])
    values("ShortType", [0, 32767, -32768, 5])
    values("ByteType", [0, 127, -128, -1])
    values("CounterColumnType", [0, 42, -2**63])
    values("BooleanType", [True, False])
    add("BooleanType", b"\x02", b"\x01")
    add("BooleanType", b"")
    values("FloatType", [0.0, -0.0, 1.0, 0.1, 1e7, 1e-3, 9.999e-4, 3.4028234663852886e38,
                         1.401298464324817e-45, float("nan"), float("inf"), float("-inf"),
                         123456.79, 1e10, 16777216.0, 1.17549435e-38, -2.5])
    add("FloatType", b"\x7f\xc0\x00\x01", b"\x7f\xc0\x00\x00")     # a NaN of another payload
    values("DoubleType", [0.0, -0.0, 1.0, 0.1, 1e7, 9999999.999, 1e-3, 0.00099, 5e-324,
                          1.7976931348623157e308, float("nan"), float("inf"), float("-inf"),
                          1e23, 100.0, 1234567.0, 12345678.0, 2.2250738585072014e-308,
                          -123.456, 1.0 / 3])
    add("DoubleType", b"")
    for t in ("UUIDType",):
        values(t, [U("00000000-0000-0000-0000-000000000000"), U("f47ac10b-58cc-4372-a567-0e02b2c3d479"),
                   U("FFFFFFFF-FFFF-FFFF-FFFF-FFFFFFFFFFFF")])
    for u in ("00000000-0000-0000-0000-000000000000", "f47ac10b-58cc-4372-a567-0e02b2c3d479"):
        add("LexicalUUIDType", U(u).bytes)
    values("TimeUUIDType", [U("e3b0c442-98fc-11e5-8994-feff819cdc9f"), U("00000000-0000-1000-8000-000000000000")])
    for ms in (0, -1, 1672848000123, -62135596800000, -62135596800001, 253402300799999,
               253402300800000, -2**63, 2**63 - 1, -15778800000000, 951782400000):
        add("TimestampType", struct.pack(">q", ms))
        if ms in (0, 1672848000123):
            add("DateType", struct.pack(">q", ms))
    for days in (0, -1, 18000, -719162, -719528, -719529, 2932897, -2**31, 2**31 - 1, -141427, 11016):
        add("SimpleDateType", date_bytes(days))
    for ns in (0, 1, 86399999999999, 45296789012345, 1000):
        add("TimeType", struct.pack(">q", ns))
    for a in ("127.0.0.1", "0.0.0.0", "255.255.255.255", "10.1.2.3"):
        add("InetAddressType", ipaddress.ip_address(a).packed)
    for a in ("::1", "2001:db8::1", "fe80::1:2:3:4", "::", "2001:db8:85a3:0:0:8a2e:370:7334",
              "ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff"):
        add("InetAddressType", ipaddress.ip_address(a).packed)
    add("InetAddressType", ipaddress.ip_address("::ffff:1.2.3.4").packed, bytes([1, 2, 3, 4]))
    add("InetAddressType", b"")
    for unscaled, scale in ((0, 0), (150, 2), (-15, 1), (1, -3), (1, 6), (1, 7), (123, -2),
                            (123456789012345678901234567890123, 3), (0, 2), (0, -2), (0, 8),
                            (-1, 0), (1, 2**31 - 1), (1, -2**31), (12345, 10), (-987654321, -1)):
        add("DecimalType", decimal_bytes(unscaled, scale))
    add("DecimalType", b"")
    for n in (0, 1, -1, 127, 128, -128, -129, 255, 256, 2**63, -2**63, 2**64, -2**64, 10**40,
              -(10**40), 2**1000 - 1):
        add("IntegerType", ct.varint_pack(n))
    add("IntegerType", b"\x00\x01", b"\x01")           # not minimal
    add("IntegerType", b"\xff\xff", b"\xff")
    values("BytesType", [b"", b"\x00", b"\xde\xad\xbe\xef", bytes(range(256))])
    for months, days, nanos in ((0, 0, 0), (1, 2, 3), (14, 10, 3600 * 10**9 + 1), (-1, -2, -3),
                                (0, 0, 1), (2**31 - 1, 2**31 - 1, 2**63 - 1),
                                (-(2**31 - 1), -(2**31 - 1), -(2**63 - 1)), (12, 0, 0),
                                (0, 7, 90061001001001)):
        add("DurationType", vint(months) + vint(days) + vint(nanos))
    # collections (frozen, as partition keys hold them)
    values("FrozenType(ListType(Int32Type))", [[1, 2, 3], []])
    values("FrozenType(SetType(UTF8Type))", [sorted(["a", "b:c"])])
    values("FrozenType(MapType(UTF8Type,Int32Type))", [{"k": 1, "z\"q": -2}])
    values("FrozenType(MapType(Int32Type,FrozenType(ListType(UTF8Type))))", [{1: ["x", ""], 2: []}])
    values("FrozenType(ListType(FrozenType(MapType(UTF8Type,DoubleType))))", [[{"a": 1.5}, {"b": float("nan")}]])
    values("FrozenType(SetType(DecimalType))", [[D("1.50"), D("1E+3")]])
    # tuples and UDTs
    tt = "FrozenType(TupleType(Int32Type,UTF8Type))"
    values(tt, [(1, "a"), (None, "x"), (1, "a:b@c"), (1, "ends\\"), (1, ""), (7, None), (-1, "@")])
    values("TupleType(UTF8Type)", [("",), ("x",)])
    values("FrozenType(TupleType(TimestampType,FrozenType(TupleType(UTF8Type,BooleanType))))",
           [(datetime.datetime(2023, 1, 4, 15, 58, 50), ("in:ner", True))])
    udt = ("FrozenType(UserType(ks,61646472657373,737472656574:UTF8Type,7a6970:Int32Type,"
           "6c6f636174696f6e:FrozenType(TupleType(DoubleType,DoubleType))))")
    values(udt, [("1 Main St: rear", 12345, (51.5, -0.125)), ("x", None, None)])
    values("UserType(ks,6e616d65,6e6f7465:UTF8Type,6e:IntegerType)", [("\u00e9t\u00e9 \"q\"", 10**30)])
    # composite partition keys
    ci = "org.apache.cassandra.db.marshal.CompositeType(org.apache.cassandra.db.marshal.UTF8Type,org.apache.cassandra.db.marshal.Int32Type)"
    for s, n in (("acme", 7), ("a:b", -1), ("ends\\", 0), ("_", 1), ("!", 2), ("", 3), ("a\\:b", 4),
                 ("x!", 5), ("\u00e9", 2**31 - 1)):
        add(ci, composite_bytes([s.encode(), struct.pack(">i", n)]))
    add("CompositeType(UTF8Type,Int32Type)", composite_bytes([b"acme"]))  # a prefix
    add("CompositeType(UUIDType,UTF8Type)",
        composite_bytes([U("f47ac10b-58cc-4372-a567-0e02b2c3d479").bytes, b"t:1"]))
    add("CompositeType(TimestampType,UTF8Type,ReversedType(LongType))",
        composite_bytes([struct.pack(">q", 1672848000123), b"", struct.pack(">q", -5)]))
    add("CompositeType(UTF8Type,FrozenType(TupleType(UTF8Type,Int32Type)))",
        composite_bytes([b"k", ser("TupleType(UTF8Type,Int32Type)", ("a:b\\", 1))]))
    add("CompositeType(FrozenType(ListType(Int32Type)),BytesType,InetAddressType,SimpleDateType,TimeType)",
        composite_bytes([ser("ListType(Int32Type)", [5]), b"\x01\x02", bytes([10, 0, 0, 1]),
                         date_bytes(19000), struct.pack(">q", 3723000000000)]))
    add("CompositeType(Int32Type,Int32Type)", composite_bytes([b"", struct.pack(">i", 9)]))
    add("CompositeType(DoubleType,DecimalType,IntegerType,BooleanType)",
        composite_bytes([struct.pack(">d", -0.0), decimal_bytes(-15, 1), ct.varint_pack(-(10**20)), b"\x00"]))
    add("CompositeType(UTF8Type)", composite_bytes([b""]))
    return v


def manifest_keys(data):
    """first and last keys of the real SSTables whose MANIFEST.tsv row names
    a key type (from their Statistics.db serialization header)"""
    rows = []
    with open(os.path.join(data, "sstables", "MANIFEST.tsv"), encoding="utf-8") as f:
        head = f.readline().rstrip("\n").split("\t")
        for line in f:
            m = dict(zip(head, line.rstrip("\n").split("\t")))
            if m["key_type"] == "-":
                continue
            for col in ("first_key_hex", "last_key_hex"):
                rows.append((m["key_type"], bytes.fromhex(m[col]), None))
    seen = set()
    out = []
    for r in rows:
        if (r[0], r[1]) not in seen:
            seen.add((r[0], r[1]))
            out.append(r)
    return out


def write(path, rows, what):
    with open(path, "w", encoding="utf-8", newline="\n") as f:
        f.write("# %s: generated by test/tools/cql_vectors.py with the DataStax Python driver %s\n"
                % (what, __import__("cassandra").__version__))
        f.write("# key_type\tkey_hex\ttext\tjson\tparse_hex ('=' same as key_hex)\n")
        for tstr, raw, back in rows:
            t = ct.lookup_casstype(tstr)
            text, js = key_text(t, raw)
            for s in (text, js):
                assert "\t" not in s and "\n" not in s or True
            f.write("%s\t%s\t%s\t%s\t%s\n" % (tstr, raw.hex(), esc_field(text), esc_field(js),
                                              "=" if back is None else back.hex()))
    print("%s: %d vectors" % (path, len(rows)))


def esc_field(s):
    """tab, newline and backslash written as \\t \\n \\\\ inside a TSV field"""
    return s.replace("\\", "\\\\").replace("\t", "\\t").replace("\n", "\\n")


def main():
    data = sys.argv[1] if len(sys.argv) > 1 else "test/data"
    out = os.path.join(data, "vectors", "cql-keys")
    os.makedirs(out, exist_ok=True)
    write(os.path.join(out, "values.tsv"), vectors(), "values of every type")
    write(os.path.join(out, "sstable-keys.tsv"), manifest_keys(data),
          "first and last keys of the real SSTables (sstables/MANIFEST.tsv)")


if __name__ == "__main__":
    main()
