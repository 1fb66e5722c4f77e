"""Loopcraft's host side, in wings by job (docs/architecture.md, "The wings"): course <- running <- authoring <-
site <- classroom, and the commands on top."""
