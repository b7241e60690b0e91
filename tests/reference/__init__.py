"""Independent, deliberately plain reference implementations used only to cross-check the engines."""
