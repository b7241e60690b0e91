"""The one translation function every user-facing string goes through.

Messages are gettext catalogs under ``companion/locale/<lang>/LC_MESSAGES/azul.mo``;
a language without a catalog falls back to English, never to an error.
"""

from __future__ import annotations

import gettext
import os
from pathlib import Path

DOMAIN = "azul"
LOCALE_DIR = Path(__file__).parent / "locale"
LANGUAGES = ("en", "da", "de", "es", "nl", "pl")

_current: dict[str, gettext.NullTranslations] = {"translation": gettext.NullTranslations()}


def set_language(lang: str | None) -> str:
    """Switch every later ``_()`` to ``lang`` (e.g. ``"de"``); returns the language in use.

    ``None`` takes the language from the environment (LANGUAGE, LC_ALL, LC_MESSAGES, LANG).
    """
    if lang is None:
        for var in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
            value = os.environ.get(var, "")
            if value and value not in ("C", "POSIX") and not value.startswith("C."):
                lang = value.split(":")[0].split(".")[0].split("_")[0]
                break
        else:
            lang = "en"
    translation = gettext.translation(DOMAIN, LOCALE_DIR, languages=[lang], fallback=True)
    _current["translation"] = translation
    return lang if type(translation) is not gettext.NullTranslations else "en"


def _(message: str) -> str:
    """Translate ``message`` into the current language."""
    return _current["translation"].gettext(message)


def ngettext(singular: str, plural: str, n: int) -> str:
    """Translate a message whose form depends on the number ``n``."""
    return _current["translation"].ngettext(singular, plural, n)
