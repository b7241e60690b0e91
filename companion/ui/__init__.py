"""The display: screens drawn with pygame-ce, the app loop, and the demo table.

Nothing here decides a rule: screens read an immutable :class:`~companion.ui.view.TableView`
built off the render loop, and every input (key, touch, GPIO button) becomes an
:class:`~companion.ui.screens.base.Action` before any screen sees it.
"""

import os

# pygame greets on import; a kiosk's log and the CLI's output have no use for it.
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
