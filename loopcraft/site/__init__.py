"""The site: render, bundle, snapshot, compress, write, headers, serve and watch, and the build's stages
(build.py) that run the authors' checks first. Imports the course, running and authoring wings only.
"""
