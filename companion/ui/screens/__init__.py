"""Screens: small objects on a stack (enter, exit, handle, update, draw)."""
