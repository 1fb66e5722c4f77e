"""Loopcraft's build side: load and validate exercises, verify them in Pyodide, render and serve the site."""
