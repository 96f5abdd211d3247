"""Runs the skill-ls carried inside the VS Code extension: `python skill_ls_bundled.py serve`.

The extension starts the language server with whichever Python >= 3.10 it found (the Python
extension's interpreter, a workspace .venv, python3 on PATH) and this file: the bundled libraries
(bundled/libs: skill_ls and its pure-Python dependencies) go first on sys.path, so nothing has to be
installed in that interpreter and whatever is installed there does not change the server.
"""
import os
import sys

if sys.version_info < (3, 10):
    sys.stderr.write(
        "skill-ls needs Python 3.10 or newer; %s is %d.%d\n" % (sys.executable, sys.version_info[0], sys.version_info[1])
    )
    sys.exit(3)

LIBS = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "libs")
sys.path.insert(0, LIBS)
# Drop the script's own directory (sys.path[0] before the insert): only the bundle is imported from here.
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path[:] = [p for p in sys.path if os.path.abspath(p or ".") != HERE]

from skill_ls.cli import console_main  # noqa: E402

console_main()
