#!/usr/bin/env python3
"""Where the threads of a benchmark wait (issue 31): runs CMD and, until it exits, samples every
thread of every process whose command line holds 'vgw-node' (the device bundle's Node), about
every 10 ms: its state, the system call it is in and its kernel wait channel (/proc/.../wchan).
Writes the 80 most frequent (role, name, state, syscall, wchan) rows to OUT; role is 'gw' for the
gateway child and 'client' for everything else. A thread blocked on a file's inode lock shows as
state D at e.g. ext4_buffered_write_iter.
  python3 bench/device/wchan.py OUT -- CMD ARGS..."""
import collections
import os
import subprocess
import sys


def thread_rows():
    for pid in (d for d in os.listdir('/proc') if d.isdigit()):
        try:
            cmdline = open(f'/proc/{pid}/cmdline', 'rb').read()
            if b'vgw-node' not in cmdline[:200]:
                continue
            role = 'gw' if b'gateway-child' in cmdline else 'client'
            tids = os.listdir(f'/proc/{pid}/task')
        except OSError:
            continue
        for tid in tids:
            base = f'/proc/{pid}/task/{tid}/'
            try:
                stat = open(base + 'stat').read()
                syscall = open(base + 'syscall').read().split()[0]
                wchan = open(base + 'wchan').read().strip()
            except OSError:
                continue
            name = stat[stat.index('(') + 1:stat.rindex(')')]
            state = stat[stat.rindex(')') + 2]
            yield (role, name, state, syscall, wchan)


def main():
    if len(sys.argv) < 4 or sys.argv[2] != '--':
        sys.exit('usage: wchan.py OUT -- CMD ARGS...')
    out, cmd = sys.argv[1], sys.argv[3:]
    child = subprocess.Popen(cmd)
    counts = collections.Counter()
    samples = 0
    while child.poll() is None:
        counts.update(thread_rows())
        samples += 1
        os.sched_yield()
        subprocess.run(['sleep', '0.005'])
    with open(out, 'w') as f:
        f.write(f'samples {samples}\n')
        for row, n in counts.most_common(80):
            f.write(f'{n:7d} {row}\n')
    sys.exit(child.returncode)


main()
