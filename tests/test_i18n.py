"""Translations: the catalogs match the code, the .mo files match the .po files, and the
companion speaks the chosen language (falling back to English for anything not translated)."""

from __future__ import annotations

import gettext
import importlib.util
import io
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from companion import i18n
from companion.explain import explain
from companion.i18n import _, ngettext, set_language
from companion.rules.azul import FloorScore

ROOT = Path(__file__).parent.parent
_spec = importlib.util.spec_from_file_location("i18n_tool", ROOT / "tools" / "i18n.py")
tool = sys.modules["i18n_tool"] = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(tool)

LANGS = sorted(tool.PLURAL_FORMS)


@pytest.fixture(autouse=True)
def english_afterwards():
    yield
    set_language("en")


def catalog(lang: str):
    return tool.read_po(tool.po_path(ROOT, lang))


def entry(msgid: str, *msgstr: str, plural: str | None = None) -> object:
    return tool.Entry(msgid, plural, list(msgstr) or [""])


# --- the code ------------------------------------------------------------------------------------

def test_every_translation_call_in_the_code_has_literal_messages():
    # An f-string or a variable inside _() never reaches the catalog, so it is never translated.
    template, problems = tool.extract(ROOT)
    assert problems == []
    assert len(template) > 100


def test_extract_reports_calls_it_cannot_see(tmp_path):
    package = tmp_path / "companion"
    package.mkdir()
    (package / "bad.py").write_text(
        'from companion.i18n import _, ngettext\n'
        'name = "x"\n'
        'a = _(f"hello {name}")\n'
        'b = _(name)\n'
        'c = ngettext("{n} tile", name, 2)\n'
        'd = _("fine {n}")\n'
        '# Translators: the pattern line, not a line of text\n'
        'e = _("line")\n')
    template, problems = tool.extract(tmp_path)
    assert [p.split(":")[1] for p in problems] == ["3", "4", "5"]
    assert [e.msgid for e in template] == ["fine {n}", "line"]
    assert template[1].notes == ["Translators: the pattern line, not a line of text"]


def test_words_translated_from_variables_are_extracted():
    # _(COLORS[color]) and _(game.phase) show these words: they must be in the template.
    from companion.rules import azul

    msgids = {e.msgid for e in tool.extract(ROOT)[0]}
    words = {*azul.COLORS, *azul.VARIANTS, azul.REFILL, azul.DRAFTING, azul.TILING, azul.OVER}
    assert words <= msgids


def test_the_tool_knows_every_language_the_companion_offers():
    assert set(LANGS) == set(i18n.LANGUAGES) - {"en"}


# --- the committed catalogs ----------------------------------------------------------------------

@pytest.mark.parametrize("lang", LANGS)
def test_committed_mo_is_exactly_what_compile_makes(lang):
    po = tool.po_path(ROOT, lang)
    assert po.with_suffix(".mo").read_bytes() == tool.compile_mo(tool.read_po(po)), (
        "run: python tools/i18n.py compile")


@pytest.mark.parametrize("lang", LANGS)
def test_translations_keep_placeholders_and_plural_forms(lang):
    cat = catalog(lang)
    assert tool.header_fields(cat)["Plural-Forms"] == tool.PLURAL_FORMS[lang]
    problems = [(e.msgid, p) for e in cat.active() for p in tool.entry_problems(e, tool.nplurals(lang))]
    assert problems == []
    assert sum(e.translated for e in cat.active()) > 400


@pytest.mark.parametrize("lang", LANGS)
def test_po_files_read_back_as_written(lang):
    po = tool.po_path(ROOT, lang)
    assert tool.format_po(tool.read_po(po)) == po.read_text(encoding="utf-8")


def test_placeholder_check_catches_broken_translations():
    assert tool.entry_problems(entry("{n} across", "{n} vandret"), 2) == []
    assert tool.entry_problems(entry("{name} took {color} and {color}", "{name} tog {color}"), 2) == []
    assert tool.entry_problems(entry("{n} across", "{m} vandret"), 2)
    assert tool.entry_problems(entry("round {points:+d}", "runde {points}"), 2)
    assert tool.entry_problems(entry("size {text!r}", "Größe {text}"), 2)
    assert tool.entry_problems(entry("{n} across", "{n vandret"), 2)
    star = entry("{n} star", "{n} gwiazdka", "{n} gwiazdki", plural="{n} stars")
    assert tool.entry_problems(star, 3) == ["2 plural forms, the language has 3"]


# --- the companion speaks the language ----------------------------------------------------------

def test_german_is_german_and_an_unknown_language_is_english():
    assert set_language("de") == "de"
    assert _("Confirm") == "Bestätigen"
    assert _("Round {n}").format(n=3) == "Runde 3"
    assert _("a message no catalog has yet") == "a message no catalog has yet"
    assert set_language("xx") == "en"
    assert _("Confirm") == "Confirm"


@pytest.mark.parametrize("lang", LANGS)
def test_every_language_loads_its_catalog(lang):
    assert set_language(lang) == lang
    translated = catalog(lang)
    msgid = "Watches a real game of Azul and keeps the score."
    expected = next(e.msgstr[0] for e in translated.active() if e.msgid == msgid)
    assert _(msgid) == expected != msgid


def test_colour_words_are_translated():
    set_language("es")
    assert [_(c) for c in ("blue", "red", "white")] == ["azul", "rojo", "blanco"]


@pytest.mark.parametrize(("n", "form"), [(1, "gwiazdka"), (2, "gwiazdki"), (5, "gwiazdek"),
                                         (22, "gwiazdki"), (25, "gwiazdek"), (12, "gwiazdek")])
def test_polish_plurals_pick_the_right_form(n, form):
    set_language("pl")
    assert ngettext("{n} star", "{n} stars", n).format(n=n) == f"{n} {form}"



@pytest.mark.parametrize(("lang", "one", "two"),
                         [("en", "floor, 1 place: -1", "floor, 2 places: -2"),
                          ("de", "Bodenreihe, 1 Feld: -1", "Bodenreihe, 2 Felder: -2")])
def test_a_floor_of_one_place_is_one_place(lang, one, two):
    # The round's summary said "floor, 1 places: -1".
    set_language(lang)
    assert [explain(FloorScore(1, 0, n, n, n)) for n in (1, 2)] == [one, two]

def test_compiled_plurals_follow_the_plural_forms_header():
    cat = tool.Catalog(tool.header_entry("pl"),
                       [entry("{n} tile", "{n} płytka", "{n} płytki", "{n} płytek", plural="{n} tiles"),
                        entry("half done", "", plural="half done"),
                        entry("Next", "Dalej")])
    translation = gettext.GNUTranslations(io.BytesIO(tool.compile_mo(cat)))
    assert [translation.ngettext("{n} tile", "{n} tiles", n) for n in (1, 3, 13, 21, 104)] == [
        "{n} płytka", "{n} płytki", "{n} płytek", "{n} płytek", "{n} płytki"]
    assert translation.gettext("Next") == "Dalej"


def _cli(*args: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "LANGUAGE": "", "LC_ALL": "", "LC_MESSAGES": "", "LANG": "C.UTF-8"}
    return subprocess.run([sys.executable, "-m", "companion", *args], capture_output=True, text=True,
                          timeout=120, check=False, env=env, cwd=ROOT)


def test_cli_prints_errors_in_the_chosen_language(tmp_path):
    missing = str(tmp_path / "missing.json")
    german = _cli("--lang", "de", "replay", missing)
    assert german.returncode == 2
    assert german.stderr.startswith(f"{missing}: kann nicht gelesen werden: ")
    english = _cli("replay", missing)
    assert english.returncode == 2 and f"{missing}: cannot read: " in english.stderr


def test_cli_help_is_in_the_chosen_language():
    result = _cli("--lang=da", "--help")
    assert result.returncode == 0
    assert "Følger et rigtigt spil Azul" in result.stdout


# --- the workflow: extract, update, compile, check ----------------------------------------------

def test_update_keeps_translations_and_drops_messages_gone_from_the_code(tmp_path):
    template, _problems = tool.extract(ROOT)
    for lang in LANGS:
        old = catalog(lang)
        new = tool.update(template, old, lang)
        active = new.active()
        assert [e.msgid for e in active] == [e.msgid for e in template]
        kept = {e.msgid: e.msgstr for e in old.active() if e.translated}
        for e in active:
            if e.msgid in kept and not e.fuzzy:
                assert e.msgstr == kept[e.msgid]
        assert sum(e.translated for e in active) >= 400


def test_update_marks_new_renamed_and_removed_messages():
    old = tool.Catalog(tool.header_entry("de"), [
        entry("Next", "Weiter"), entry("Play again ({seconds})", "Nochmal ({seconds})"),
        entry("a message nobody uses any more", "eine Meldung, die keiner mehr nutzt")])
    template = [entry("Next"), entry("Play again ({seconds} s)"), entry("Brand new")]
    new = tool.update(template, old, "de")
    by_id = {e.msgid: e for e in new.active()}
    assert list(by_id) == ["Next", "Play again ({seconds} s)", "Brand new"]
    assert by_id["Next"].msgstr == ["Weiter"] and by_id["Next"].translated
    assert by_id["Play again ({seconds} s)"].fuzzy  # an old translation offered, not used yet
    assert by_id["Brand new"].msgstr == [""]
    assert [e.msgid for e in new.entries if e.obsolete] == ["a message nobody uses any more"]
    assert tool.update(template, old, "de", keep_obsolete=False).entries == new.active()
    translation = gettext.GNUTranslations(io.BytesIO(tool.compile_mo(new)))
    assert translation.gettext("Next") == "Weiter"
    assert translation.gettext("Play again ({seconds} s)") == "Play again ({seconds} s)"
    assert translation.gettext("a message nobody uses any more") == "a message nobody uses any more"


def test_the_commands_on_a_copy_of_the_repository(tmp_path, capsys):
    for top in tool.SOURCES:
        shutil.copytree(ROOT / top, tmp_path / top, ignore=shutil.ignore_patterns("__pycache__"))
    for command in ("extract", "update", "compile", "check"):
        assert tool.main(["--root", str(tmp_path), command]) == 0
    capsys.readouterr()
    # A developer adds a message: check still passes, update offers it to translators empty.
    (tmp_path / "companion" / "added.py").write_text('from companion.i18n import _\n\nX = _("Shiny new")\n')
    assert tool.main(["--root", str(tmp_path), "check"]) == 0
    assert "1 new and 0 gone" in capsys.readouterr().err
    assert tool.main(["--root", str(tmp_path), "extract"]) == 0
    assert tool.main(["--root", str(tmp_path), "update"]) == 0
    added = next(e for e in tool.read_po(tool.po_path(tmp_path, "da")).active() if e.msgid == "Shiny new")
    assert added.msgstr == [""]
    # A translator breaks a placeholder and forgets to compile: check fails and says why.
    po = tool.po_path(tmp_path, "nl")
    text = po.read_text(encoding="utf-8")
    po.write_text(text.replace('msgstr "Ronde {n}"', 'msgstr "Ronde {m}"'), encoding="utf-8")
    assert tool.main(["--root", str(tmp_path), "check"]) == 1
    err = capsys.readouterr().err
    assert "placeholders {m} differ from {n}" in err and "nl/LC_MESSAGES/azul.mo: out of date" in err
    assert tool.main(["--root", str(tmp_path), "compile"]) == 0
    assert tool.main(["--root", str(tmp_path), "check"]) == 1
    po.write_text(text, encoding="utf-8")
    assert tool.main(["--root", str(tmp_path), "compile"]) == 0
    assert tool.main(["--root", str(tmp_path), "check"]) == 0
