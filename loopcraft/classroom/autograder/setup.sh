#!/usr/bin/env bash
# Loopcraft's Gradescope autograder: set-up, run once by Gradescope when it builds the autograder's image (as root,
# on its Ubuntu base image, with this zip's contents in /autograder/source). It installs what the grader needs
# (Node.js 20 or later, Python 3.11 or later, the npm and pip packages the project locks), then grades each
# challenge's reference solution: that proves the installation, and makes the runner's memory snapshot once, here,
# instead of in every student's run.
set -euo pipefail
cd "$(dirname "$0")"
export DEBIAN_FRONTEND=noninteractive

apt-get update
apt-get install -y --no-install-recommends ca-certificates curl gnupg

node_major() { node -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0; }
if [ "$(node_major)" -lt 20 ]; then
    curl -fsSL https://deb.nodesource.com/setup_20.x | bash -
    apt-get install -y nodejs
fi

if python3 -c 'import sys; sys.exit(sys.version_info < (3, 11))' 2>/dev/null; then
    python=python3
    apt-get install -y --no-install-recommends python3-venv
else
    apt-get install -y --no-install-recommends software-properties-common
    add-apt-repository -y ppa:deadsnakes/ppa
    apt-get update
    apt-get install -y --no-install-recommends python3.11 python3.11-venv
    python=python3.11
fi

"$python" -m venv .venv
.venv/bin/python -m pip install --quiet --upgrade pip
.venv/bin/python -m pip install --quiet -r requirements.txt
npm ci --omit=dev --ignore-scripts --no-audit --no-fund

.venv/bin/python -m loopcraft.classroom.gradescope check
