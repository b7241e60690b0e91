"""Message catalogs: from the English in the code to the .mo files the companion reads.

    python tools/i18n.py extract   # the code's messages -> companion/locale/azul.pot
    python tools/i18n.py update    # azul.pot -> companion/locale/<lang>/LC_MESSAGES/azul.po
    python tools/i18n.py compile   # each azul.po -> azul.mo (GNU .mo format)
    python tools/i18n.py check     # how much is translated; exit 1 on errors

Pure Python on purpose: a developer needs neither gettext's tools nor Babel. docs/translating.md
says who runs which command when.
"""

from __future__ import annotations

import argparse
import ast
import difflib
import re
import string
import struct
import sys
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SOURCES = ("companion", "vision", "hardware")
DOMAIN = "azul"
LOCALE = Path("companion/locale")

PLURAL_FORMS = {
    "da": "nplurals=2; plural=(n != 1);",
    "de": "nplurals=2; plural=(n != 1);",
    "es": "nplurals=2; plural=(n != 1);",
    "nl": "nplurals=2; plural=(n != 1);",
    "pl": "nplurals=3; plural=(n==1 ? 0 : n%10>=2 && n%10<=4 && (n%100<10 || n%100>=20) ? 1 : 2);",
}
LANGUAGE_NAMES = {"da": "Danish", "de": "German", "es": "Spanish", "nl": "Dutch", "pl": "Polish"}

# A word held in a variable (`_(COLORS[color])`, `_(game.phase)`) cannot be seen at the call. Such
# words come from module constants, extracted where they are defined; the calls that translate
# them are listed by file and argument. Any other `_()` of something not a literal is an error.
RUNTIME_WORDS = {
    "companion/rules/azul.py": ("COLORS", "VARIANTS", "REFILL", "DRAFTING", "TILING", "OVER"),
    "companion/rules/kids.py": ("COLORS",),
    "companion/rules/kids_board.py": ("SHAPES",),
}
DYNAMIC_CALLS = {
    "companion/rules/azul.py": {"COLORS[color]", "COLORS[self.line_colors[line]]", "COLORS[move.color]",
                                "self.phase"},
    "companion/explain.py": {"COLORS[color]"},
    "companion/tracker.py": {"COLORS[found.color]"},
    "companion/ui/view.py": {"COLORS[event.color]"},
    "companion/ui/screens/entry.py": {"COLORS[color]"},
    # Kids tile colours and field shapes.
    "companion/kids_tracker.py": {"short", "value", "spot.shape", "SHAPE_OF[value]"},
    "companion/ui/kids/samples.py": {"picture.shapes[index]"},
    "companion/commands/replay.py": {"game.variant", "game.phase"},
    # Board sides are the variant names; tiles and lines hold colour names.
    "companion/commands/recognize.py": {"b['side']", "line['color']", "t", "col"},
}
FUNCTIONS = {"_": 1, "ngettext": 2}  # how many leading arguments are messages


class CatalogError(ValueError):
    """A .po or .pot file that cannot be read; the message names the file and line."""


@dataclass
class Entry:
    msgid: str
    msgid_plural: str | None = None
    msgstr: list[str] = field(default_factory=lambda: [""])
    references: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)  # "#." comments: from the code, for translators
    comments: list[str] = field(default_factory=list)  # "# " comments: the translator's own
    flags: list[str] = field(default_factory=list)
    obsolete: bool = False

    @property
    def fuzzy(self) -> bool:
        return "fuzzy" in self.flags

    @property
    def translated(self) -> bool:
        return not self.fuzzy and all(self.msgstr)


@dataclass
class Catalog:
    header: Entry
    entries: list[Entry]

    def active(self) -> list[Entry]:
        return [e for e in self.entries if not e.obsolete]


# --- extract ---------------------------------------------------------------------------------

def extract(root: Path) -> tuple[list[Entry], list[str]]:
    """Every message of the code under ``root``, in file order, and the calls it cannot extract."""
    found: dict[str, Entry] = {}
    problems: list[str] = []

    def add(msgid: str, plural: str | None, where: str, note: str | None) -> None:
        entry = found.get(msgid)
        if entry is None:
            entry = found[msgid] = Entry(msgid, plural, [""] * (2 if plural else 1))
            if "{" in msgid:
                entry.flags.append("python-brace-format")
        elif plural and entry.msgid_plural is None:
            entry.msgid_plural, entry.msgstr = plural, ["", ""]
        entry.references.append(where)
        if note and note not in entry.notes:
            entry.notes.append(note)

    for top in SOURCES:
        for path in sorted((root / top).rglob("*.py")):
            rel = path.relative_to(root).as_posix()
            source = path.read_text(encoding="utf-8")
            lines = source.splitlines()
            tree = ast.parse(source, rel)
            for node in sorted(ast.walk(tree), key=_position):
                if isinstance(node, (ast.Assign, ast.AnnAssign)) and node in tree.body:
                    for name, value in _constants(node):
                        if name in RUNTIME_WORDS.get(rel, ()):
                            for word in value:
                                add(word, None, f"{rel}:{node.lineno}",
                                    f"A word shown on its own or put into other messages ({name}).")
                if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
                        and node.func.id in FUNCTIONS):
                    continue
                count = FUNCTIONS[node.func.id]
                args = node.args[:count]
                if len(args) == count and all(_is_text(a) for a in args):
                    add(args[0].value, args[1].value if count == 2 else None,
                        f"{rel}:{node.lineno}", _translator_note(lines, node.lineno))
                elif not (count == 1 and len(node.args) == 1
                          and ast.unparse(node.args[0]) in DYNAMIC_CALLS.get(rel, ())):
                    problems.append(f"{rel}:{node.lineno}: {ast.unparse(node)} is not a string literal, "
                                    "so it cannot be extracted")
    return list(found.values()), problems


def _position(node: ast.AST) -> tuple[int, int]:
    return getattr(node, "lineno", 0), getattr(node, "col_offset", 0)


def _is_text(node: ast.expr) -> bool:
    return isinstance(node, ast.Constant) and isinstance(node.value, str)


def _constants(node: ast.Assign | ast.AnnAssign) -> list[tuple[str, list[str]]]:
    """Module constants of text: ``A = "x"``, ``A = ("x", "y")`` and ``A, B = "x", "y"``."""
    targets = node.targets if isinstance(node, ast.Assign) else [node.target]
    pairs: list[tuple[str, list[str]]] = []
    for target in targets:
        if isinstance(target, ast.Name):
            pairs.append((target.id, _texts(node.value)))
        elif (isinstance(target, ast.Tuple) and isinstance(node.value, ast.Tuple)
              and len(target.elts) == len(node.value.elts)):
            pairs += [(t.id, _texts(v)) for t, v in zip(target.elts, node.value.elts, strict=True)
                      if isinstance(t, ast.Name)]
    return pairs


def _texts(value: ast.expr | None) -> list[str]:
    if value is not None and _is_text(value):
        return [value.value]
    if isinstance(value, (ast.Tuple, ast.List)):
        return [v.value for v in value.elts if _is_text(v)]
    return []


def _translator_note(lines: list[str], lineno: int) -> str | None:
    """The ``# Translators: ...`` comment just above a call, if the developer left one."""
    block: list[str] = []
    k = lineno - 2
    while k >= 0 and lines[k].lstrip().startswith("#"):
        block.insert(0, lines[k].strip().lstrip("#").strip())
        k -= 1
    for i, text in enumerate(block):
        if text.startswith("Translators:"):
            return " ".join(block[i:])
    return None


# --- .po and .pot files ----------------------------------------------------------------------

_ESCAPES = {"\\": "\\\\", '"': '\\"', "\n": "\\n", "\t": "\\t"}
_UNESCAPES = {"\\": "\\", '"': '"', "n": "\n", "t": "\t"}


def _quote(text: str) -> str:
    return '"' + "".join(_ESCAPES.get(c, c) for c in text) + '"'


def _unquote(text: str, where: str) -> str:
    if len(text) < 2 or text[0] != '"' or text[-1] != '"':
        raise CatalogError(f"{where}: expected a quoted string, not {text!r}")
    try:
        return re.sub(r'\\(.)', lambda m: _UNESCAPES[m.group(1)], text[1:-1])
    except KeyError as error:
        raise CatalogError(f"{where}: unknown escape \\{error.args[0]}") from None


def header_entry(lang: str | None) -> Entry:
    fields = [("Project-Id-Version", "azul-companion"), ("MIME-Version", "1.0"),
              ("Content-Type", "text/plain; charset=UTF-8"), ("Content-Transfer-Encoding", "8bit")]
    if lang:
        fields[1:1] = [("Language", lang)]
        fields.append(("Plural-Forms", PLURAL_FORMS[lang]))
    entry = Entry("", None, ["".join(f"{k}: {v}\n" for k, v in fields)])
    entry.comments = [f"{LANGUAGE_NAMES[lang]} messages of the Azul Table Companion." if lang
                      else "Messages of the Azul Table Companion, extracted by tools/i18n.py."]
    return entry


def header_fields(catalog: Catalog) -> dict[str, str]:
    pairs = (line.split(":", 1) for line in catalog.header.msgstr[0].splitlines() if ":" in line)
    return {k.strip(): v.strip() for k, v in pairs}


def read_po(path: Path) -> Catalog:
    """Parse a .po or .pot file (the subset gettext tools write: no msgctxt)."""
    entries: list[Entry] = []
    current = Entry("", msgstr=[])
    field_name: str | None = None
    seen_msgid = False

    def finish() -> None:
        nonlocal current, field_name, seen_msgid
        if seen_msgid:
            entries.append(current)
        current, field_name, seen_msgid = Entry("", msgstr=[]), None, False

    for number, raw in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        where = f"{path}:{number}"
        line = raw.strip()
        obsolete = line.startswith("#~")
        if obsolete:
            line = line[2:].strip()
        if not line:
            finish()
            continue
        if line.startswith("#"):
            if seen_msgid and field_name is not None:
                finish()
            if line.startswith("#:"):
                current.references += line[2:].split()
            elif line.startswith("#,"):
                current.flags += [f.strip() for f in line[2:].split(",") if f.strip()]
            elif line.startswith("#."):
                current.notes.append(line[2:].strip())
            elif not line.startswith("#|"):
                current.comments.append(line[1:].strip())
            continue
        current.obsolete = current.obsolete or obsolete
        if line.startswith('"'):
            if field_name is None:
                raise CatalogError(f"{where}: a string outside msgid or msgstr")
            text = _unquote(line, where)
            if field_name == "msgid":
                current.msgid += text
            elif field_name == "msgid_plural":
                current.msgid_plural = (current.msgid_plural or "") + text
            else:
                current.msgstr[int(field_name)] += text
            continue
        keyword, _space, rest = line.partition(" ")
        if keyword == "msgid":
            if seen_msgid:
                finish()
                current.obsolete = obsolete
            seen_msgid, field_name, current.msgid = True, "msgid", _unquote(rest, where)
        elif keyword == "msgid_plural" and seen_msgid:
            field_name, current.msgid_plural = "msgid_plural", _unquote(rest, where)
        elif keyword == "msgstr" and seen_msgid:
            current.msgstr.append(_unquote(rest, where))
            field_name = str(len(current.msgstr) - 1)
        elif (m := re.fullmatch(r"msgstr\[(\d+)\]", keyword)) and seen_msgid:
            if int(m.group(1)) != len(current.msgstr):
                raise CatalogError(f"{where}: {keyword} out of order")
            current.msgstr.append(_unquote(rest, where))
            field_name = str(len(current.msgstr) - 1)
        else:
            raise CatalogError(f"{where}: cannot read {raw.strip()!r}")
    finish()
    for entry in entries:
        if not entry.msgstr:
            raise CatalogError(f"{path}: {entry.msgid!r} has no msgstr")
    header = next((e for e in entries if e.msgid == "" and not e.obsolete), None)
    if header is None:
        raise CatalogError(f"{path}: no header (the entry with msgid \"\")")
    return Catalog(header, [e for e in entries if e is not header])


def format_po(catalog: Catalog) -> str:
    blocks = []
    for entry in [catalog.header, *catalog.entries]:
        lines = [f"# {c}".rstrip() for c in entry.comments]
        if not entry.obsolete:
            lines += [f"#. {n}" for n in entry.notes]
            lines += [f"#: {r}" for r in entry.references]
        if entry.flags:
            lines.append("#, " + ", ".join(entry.flags))
        prefix = "#~ " if entry.obsolete else ""
        lines.append(prefix + "msgid " + _quote_long(entry.msgid, prefix))
        if entry.msgid_plural is not None:
            lines.append(prefix + "msgid_plural " + _quote_long(entry.msgid_plural, prefix))
            lines += [prefix + f"msgstr[{k}] " + _quote_long(s, prefix) for k, s in enumerate(entry.msgstr)]
        else:
            lines.append(prefix + "msgstr " + _quote_long(entry.msgstr[0], prefix))
        blocks.append("\n".join(lines))
    return "\n\n".join(blocks) + "\n"


def _quote_long(text: str, prefix: str) -> str:
    """One line per line of text, as gettext writes a header: readable in a diff."""
    parts = text.splitlines(keepends=True)
    if len(parts) <= 1:
        return _quote(text)
    return '""\n' + "\n".join(prefix + _quote(p) for p in parts)


def _write_if_changed(path: Path, data: str | bytes) -> bool:
    new = data.encode("utf-8") if isinstance(data, str) else data
    if path.exists() and path.read_bytes() == new:
        return False
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_bytes(new)
    tmp.replace(path)
    return True


# --- update ----------------------------------------------------------------------------------

def nplurals(lang: str) -> int:
    return int(re.match(r"nplurals=(\d+)", PLURAL_FORMS[lang]).group(1))


def update(template: list[Entry], old: Catalog | None, lang: str, keep_obsolete: bool = True) -> Catalog:
    """The catalog for ``lang`` with exactly the template's messages.

    A message kept keeps its translation; a new one starts empty, or, when an old message reads
    almost the same, with that translation marked fuzzy (not used until a translator clears the
    mark). Messages gone from the code become obsolete (``#~``) if translated, else are dropped.
    """
    forms = nplurals(lang)
    previous = {e.msgid: e for e in old.entries} if old else {}
    header = old.header if old else header_entry(lang)
    fields = dict(header_fields(Catalog(header, [])))
    fields.update({"Language": lang, "Content-Type": "text/plain; charset=UTF-8",
                   "Plural-Forms": PLURAL_FORMS[lang]})
    header = Entry("", None, ["".join(f"{k}: {v}\n" for k, v in fields.items())],
                   comments=header.comments or header_entry(lang).comments)
    unused = {k: e for k, e in previous.items() if any(e.msgstr)}
    entries = []
    for source in template:
        entry = Entry(source.msgid, source.msgid_plural, references=list(source.references),
                      notes=list(source.notes), flags=[f for f in source.flags if f != "fuzzy"])
        width = forms if source.msgid_plural is not None else 1
        match = previous.get(source.msgid)
        fuzzy = False
        if match is None or not any(match.msgstr):
            close = difflib.get_close_matches(source.msgid, list(unused), n=1, cutoff=0.8)
            if close:
                match, fuzzy = unused[close[0]], True
        if match is not None:
            unused.pop(match.msgid, None)
            entry.comments = list(match.comments)
            fuzzy = fuzzy or match.fuzzy
            entry.msgstr = list(match.msgstr)
            if (match.msgid_plural is None) != (source.msgid_plural is None):
                fuzzy = True  # a message that became plural, or stopped being one
        entry.msgstr = (entry.msgstr + [""] * width)[:width] if match else [""] * width
        if fuzzy and any(entry.msgstr):
            entry.flags.insert(0, "fuzzy")
        entries.append(entry)
    if keep_obsolete:
        for gone in unused.values():
            entries.append(Entry(gone.msgid, gone.msgid_plural, list(gone.msgstr),
                                 comments=list(gone.comments), obsolete=True))
    return Catalog(header, entries)


# --- compile ---------------------------------------------------------------------------------

def compile_mo(catalog: Catalog) -> bytes:
    """The GNU .mo file of a catalog: translated messages only, so the rest fall back to English.

    Layout: magic, revision, count, offset of the original-string table, offset of the
    translation table, hash table size and offset (0: none); each table holds (length, offset)
    pairs, sorted by original; then the NUL-terminated strings. Plural forms are joined by NULs.
    """
    pairs = {catalog.header.msgid.encode(): catalog.header.msgstr[0].encode("utf-8")}
    for entry in catalog.active():
        if entry.translated:
            key = entry.msgid if entry.msgid_plural is None else f"{entry.msgid}\0{entry.msgid_plural}"
            pairs[key.encode("utf-8")] = "\0".join(entry.msgstr).encode("utf-8")
    keys = sorted(pairs)
    count = len(keys)
    start = 7 * 4 + 16 * count
    ids = strs = b""
    id_table, str_table = [], []
    for key in keys:
        id_table.append((len(key), len(ids)))
        ids += key + b"\0"
        str_table.append((len(pairs[key]), len(strs)))
        strs += pairs[key] + b"\0"
    out = [struct.pack("<7I", 0x950412DE, 0, count, 7 * 4, 7 * 4 + 8 * count, 0, 0)]
    out += [struct.pack("<2I", n, start + off) for n, off in id_table]
    out += [struct.pack("<2I", n, start + len(ids) + off) for n, off in str_table]
    return b"".join([*out, ids, strs])


# --- check -----------------------------------------------------------------------------------

def placeholders(text: str) -> list[tuple[str, str, str]]:
    """The distinct ``{name!r:spec}`` fields of a str.format text; ValueError if braces are broken.

    A translation may use a field once where English repeats it, but must keep every field as it is.
    """
    return sorted({(name, conv or "", spec or "") for _lit, name, spec, conv in string.Formatter().parse(text)
                   if name is not None})


def entry_problems(entry: Entry, forms: int) -> list[str]:
    """What is wrong with one translation: its placeholders or its number of plural forms."""
    problems = []
    if entry.msgid_plural is not None and len(entry.msgstr) != forms:
        problems.append(f"{len(entry.msgstr)} plural forms, the language has {forms}")
    if entry.msgid_plural is None and len(entry.msgstr) != 1:
        problems.append("plural forms for a message that has no plural")
    brace = "python-brace-format" in entry.flags or "{" in entry.msgid
    for k, text in enumerate(entry.msgstr):
        if not text or not brace:
            continue
        # Form 0 answers n == 1 in every language here, so it is checked against the singular.
        original = entry.msgid if entry.msgid_plural is None or k == 0 else entry.msgid_plural
        try:
            wanted, got = placeholders(original), placeholders(text)
        except ValueError as error:
            problems.append(f"msgstr{'' if entry.msgid_plural is None else f'[{k}]'}: {error}")
            continue
        if wanted != got:
            problems.append("placeholders " + _show(got) + " differ from " + _show(wanted))
    return problems


def _show(fields: list[tuple[str, str, str]]) -> str:
    return "{" + ", ".join(n + (f"!{c}" if c else "") + (f":{s}" if s else "") for n, c, s in fields) + "}"


def check(root: Path) -> tuple[list[str], list[str], list[str]]:
    """Report lines, warnings and errors for the catalogs under ``root``."""
    report, warnings, errors = [], [], []
    template, problems = extract(root)
    errors += problems
    pot = root / LOCALE / f"{DOMAIN}.pot"
    if not pot.exists():
        errors.append(f"{pot}: missing; run: python tools/i18n.py extract")
        return report, warnings, errors
    try:
        pot_ids = {e.msgid for e in read_po(pot).active()}
    except CatalogError as error:
        errors.append(str(error))
        return report, warnings, errors
    code_ids = {e.msgid for e in template}
    if code_ids != pot_ids:
        warnings.append(f"{pot}: {len(code_ids - pot_ids)} new and {len(pot_ids - code_ids)} gone messages "
                        "in the code; run: python tools/i18n.py extract && python tools/i18n.py update")
    for lang, rule in PLURAL_FORMS.items():
        po = po_path(root, lang)
        mo = po.with_suffix(".mo")
        if not po.exists():
            errors.append(f"{po}: missing; run: python tools/i18n.py update")
            continue
        try:
            catalog = read_po(po)
        except CatalogError as error:
            errors.append(str(error))
            continue
        plural_forms = header_fields(catalog).get("Plural-Forms", "")
        if plural_forms != rule:
            errors.append(f"{po}: Plural-Forms is {plural_forms!r}, not {rule!r}")
        active = catalog.active()
        for entry in active:
            errors += [f"{po}: {entry.msgid!r}: {p}" for p in entry_problems(entry, nplurals(lang))]
        translated = sum(e.translated for e in active)
        fuzzy = sum(e.fuzzy for e in active)
        missing = pot_ids - {e.msgid for e in active}
        if missing:
            warnings.append(f"{po}: {len(missing)} messages of the .pot are not in it; "
                            "run: python tools/i18n.py update")
        if not mo.exists() or mo.read_bytes() != compile_mo(catalog):
            errors.append(f"{mo}: out of date with {po.name}; run: python tools/i18n.py compile")
        obsolete = len(catalog.entries) - len(active)
        report.append(f"{lang}: {translated} of {len(active)} translated, {fuzzy} fuzzy, "
                      f"{len(active) - translated - fuzzy} untranslated, {obsolete} obsolete")
    return report, warnings, errors


# --- commands --------------------------------------------------------------------------------

def po_path(root: Path, lang: str) -> Path:
    return root / LOCALE / lang / "LC_MESSAGES" / f"{DOMAIN}.po"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="tools/i18n.py", description=__doc__.split("\n")[0])
    parser.add_argument("--root", type=Path, default=ROOT, help="the repository (default: this one)")
    sub = parser.add_subparsers(dest="command", required=True)
    sub.add_parser("extract", help="collect the code's messages into companion/locale/azul.pot")
    up = sub.add_parser("update", help="merge azul.pot into every language's azul.po")
    up.add_argument("--drop-obsolete", action="store_true", help="drop translations of removed messages")
    sub.add_parser("compile", help="write each azul.po to its azul.mo")
    sub.add_parser("check", help="count translations; exit 1 on errors")
    args = parser.parse_args(argv)
    root = args.root.resolve()
    try:
        return COMMANDS[args.command](root, args)
    except CatalogError as error:
        print(f"i18n: {error}", file=sys.stderr)
        return 1


def _extract(root: Path, _args: argparse.Namespace) -> int:
    template, problems = extract(root)
    for problem in problems:
        print(f"i18n: {problem}", file=sys.stderr)
    pot = root / LOCALE / f"{DOMAIN}.pot"
    changed = _write_if_changed(pot, format_po(Catalog(header_entry(None), template)))
    print(f"{pot.relative_to(root)}: {len(template)} messages{'' if changed else ' (unchanged)'}")
    return 1 if problems else 0


def _update(root: Path, args: argparse.Namespace) -> int:
    template = read_po(root / LOCALE / f"{DOMAIN}.pot").active()
    for lang in PLURAL_FORMS:
        path = po_path(root, lang)
        catalog = update(template, read_po(path) if path.exists() else None, lang,
                         keep_obsolete=not args.drop_obsolete)
        changed = _write_if_changed(path, format_po(catalog))
        active = catalog.active()
        print(f"{path.relative_to(root)}: {sum(e.translated for e in active)} of {len(active)} translated, "
              f"{sum(e.fuzzy for e in active)} fuzzy{'' if changed else ' (unchanged)'}")
    return 0


def _compile(root: Path, _args: argparse.Namespace) -> int:
    for lang in PLURAL_FORMS:
        path = po_path(root, lang)
        mo = path.with_suffix(".mo")
        changed = _write_if_changed(mo, compile_mo(read_po(path)))
        print(f"{mo.relative_to(root)}{'' if changed else ' (unchanged)'}")
    return 0


def _check(root: Path, _args: argparse.Namespace) -> int:
    report, warnings, errors = check(root)
    print("\n".join(report))
    for line in warnings:
        print(f"warning: {line}", file=sys.stderr)
    for line in errors:
        print(f"error: {line}", file=sys.stderr)
    return 1 if errors else 0


COMMANDS = {"extract": _extract, "update": _update, "compile": _compile, "check": _check}

if __name__ == "__main__":
    sys.exit(main())
