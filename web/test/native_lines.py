#!/usr/bin/env python3
"""Prints what the native engine writes for the lines on stdin, up to its first `bestmove`: the reference
the browser worker's lines are compared with (scripts/web_test.sh). The engine's input stays open until
then, since the end of input would stop its search.

    python3 web/test/native_lines.py target/release/chuhan < INPUT
"""
import subprocess
import sys

engine = subprocess.Popen([sys.argv[1]], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
engine.stdin.write(sys.stdin.read().strip() + "\n")
engine.stdin.flush()
for line in engine.stdout:
    sys.stdout.write(line)
    if line.startswith("bestmove"):
        break
engine.stdin.write("quit\n")
engine.stdin.close()
engine.wait(timeout=60)
