#!/usr/bin/env python3
"""Checks the size limits of the sources: no file under lib/ over 450
lines, no function there over 60 lines except the declarative tables listed
in TABLES, and no Python file under bench/, fuzz/ or python/ over 450 lines
(PYTHON_DIRS). Prints each violation as FILE:LINE and exits 1 if there is
one.

Functions are found by brace matching outside comments, strings and
character literals: a block opened at namespace or class scope after a
`)` is a function body (lambdas and control flow inside it count toward
their function).

Known excesses still to split are listed in scripts/size-exceptions.txt
(`PATH LINES` or `PATH:FUNCTION LINES`, empty today): they are reported, and
fail when they grow; an entry for something within the limits fails too, so
the list only shrinks.

Usage: scripts/check_sizes.py [ROOT] [--exceptions FILE]
"""
import glob
import os
import re
import sys

MAX_FILE_LINES = 450
MAX_FUNCTION_LINES = 60
# The Python outside lib/ held to the same file limit: the package, the
# fuzzers and the benchmarks.
PYTHON_DIRS = ('bench', 'fuzz', 'python')
# Declarative tables: one case per line, nothing to split.
TABLES = {'describeKeepReason'}

COMMENT = re.compile(r'//.*')
STRING = re.compile(r'"(\\.|[^"\\])*"')
CHAR = re.compile(r"'(\\.|[^'\\])'")


def scope_kind(text):
    if re.search(r'\bnamespace\b', text):
        return 'scope'
    if re.search(r'\b(class|struct|enum|union)\b[^()]*$', text):
        return 'scope'
    if ')' in text or 'operator' in text:
        return 'function'
    return 'other'


def long_functions(path):
    lines = open(path, encoding='utf-8').read().split('\n')
    stack = []  # (kind, first line, signature)
    signature = ''
    for number, line in enumerate(lines):
        code = CHAR.sub("''", STRING.sub('""', COMMENT.sub('', line)))
        for index, ch in enumerate(code):
            if ch == '{':
                outer = not stack or stack[-1][0] == 'scope'
                text = (signature + code[:index]).strip()
                stack.append((scope_kind(text) if outer else 'inner', number,
                              text))
                signature = ''
            elif ch == '}':
                if stack:
                    kind, first, text = stack.pop()
                    length = number - first + 1
                    name = re.findall(r'(\w+)\s*\(', text)
                    name = name[0] if name else text[-40:]
                    if (kind == 'function' and length > MAX_FUNCTION_LINES
                            and name not in TABLES):
                        yield first + 1, length, name
                signature = ''
            elif ch == ';' and (not stack or stack[-1][0] == 'scope'):
                signature = ''
        if not stack or stack[-1][0] == 'scope':
            # What follows the last brace or semicolon may be the start of a
            # signature that ends on a later line.
            signature += ' ' + re.split(r'[{};]', code)[-1]


def read_exceptions(path):
    """{key: lines} from an exceptions file; {} when there is none."""
    if not path or not os.path.exists(path):
        return {}
    known = {}
    for line in open(path, encoding='utf-8'):
        line = line.split('#')[0].strip()
        if line:
            key, lines = line.rsplit(None, 1)
            known[key] = int(lines)
    return known


def main():
    args = [a for a in sys.argv[1:] if not a.startswith('--exceptions=')]
    here = os.path.dirname(os.path.abspath(__file__))
    root = args[0] if args else os.path.dirname(here)
    chosen = [a.split('=', 1)[1] for a in sys.argv[1:]
              if a.startswith('--exceptions=')]
    known = read_exceptions(chosen[0] if chosen else
                            os.path.join(root, 'scripts', 'size-exceptions.txt'))
    problems = 0
    still_over = set()

    def report(key, where, length, limit, what):
        nonlocal problems
        still_over.add(key)
        if key in known and length <= known[key]:
            print(f'{where}: {what} is {length} lines (known, at most '
                  f'{known[key]}; limit {limit})')
            return
        print(f'{where}: {what} is {length} lines (at most {limit})')
        problems += 1

    files = sorted(glob.glob(os.path.join(root, 'lib', '**', '*.cpp'),
                             recursive=True) +
                   glob.glob(os.path.join(root, 'lib', '**', '*.h'),
                             recursive=True))
    for path in files:
        shown = os.path.relpath(path, root)
        count = open(path, encoding='utf-8').read().count('\n')
        if count > MAX_FILE_LINES:
            report(shown, f'{shown}:1', count, MAX_FILE_LINES, 'the file')
        for first, length, name in long_functions(path):
            report(f'{shown}:{name}', f'{shown}:{first}', length,
                   MAX_FUNCTION_LINES, name)
    python_files = sorted(
        path for folder in PYTHON_DIRS
        for path in glob.glob(os.path.join(root, folder, '**', '*.py'),
                              recursive=True))
    for path in python_files:
        shown = os.path.relpath(path, root)
        count = open(path, encoding='utf-8').read().count('\n')
        if count > MAX_FILE_LINES:
            report(shown, f'{shown}:1', count, MAX_FILE_LINES, 'the file')
    files += python_files
    # A listed excess that is gone leaves the list, so that it only shrinks.
    for key in sorted(set(known) - still_over):
        print(f'{key}: listed as an exception but within the limits now; '
              f'remove it from the list')
        problems += 1
    print(f'{len(files)} files checked, {problems} over the limits')
    return 1 if problems else 0


if __name__ == '__main__':
    sys.exit(main())
