"""The authors' checks and tools: verify (and the known mistakes it makes), mutation testing, scenarios and
strengthen, record, new, the lessons' blocks run once. Imports the course and running wings only.
"""
