#!/usr/bin/env python3
"""Summarises profile-up.sh's threads.tsv: for each process, the windows in which it used more
than half a core (CPU cores in use, sampled every 0.5 s), and per window its core-seconds and the
busiest threads. With --marks LOG (profile-up.sh's managed-log.txt, whose managed.mjs printed
`[mark] <epoch ms> up-start|up-end <key>` lines), instead: for each upload, the cores each process
used between its start and end, and its busiest threads (user / system).
Usage: python3 bench/device/thread-cpu.py [--marks managed-log.txt] threads.tsv"""
import collections
import sys

HZ = 100  # clock ticks per second of utime/stime in /proc/<pid>/task/<tid>/stat


def load(path, split=False):
    data = collections.defaultdict(dict)
    for line in open(path):
        f = line.split()
        if len(f) >= 6:
            ticks = (int(f[4]), int(f[5]))
            data[(f[1], f[2])][float(f[0])] = ticks if split else sum(ticks)
    return data


def uploads(log):
    """(start s, end s, key) of each upload the marks in `log` bracket."""
    starts, out = {}, []
    for line in open(log):
        f = line.split()
        if len(f) >= 4 and f[0] == '[mark]':
            t, what, key = int(f[1]) / 1000, f[2], f[3]
            if what == 'up-start':
                starts[key] = t
            elif what == 'up-end' and key in starts:
                out.append((starts.pop(key), t, key))
    return out


def by_upload(path, log):
    data = load(path, split=True)
    times = sorted({t for d in data.values() for t in d})
    for a, b, key in uploads(log):
        inside = [t for t in times if a <= t <= b]
        if len(inside) < 2:
            print(f'{key}: {b - a:.2f} s, fewer than two samples inside')
            continue
        t0, t1 = inside[0], inside[-1]
        per = {}
        for (pid, tid), d in data.items():
            if t0 in d and t1 in d:
                per[(pid, tid)] = tuple((y - x) / HZ / (t1 - t0) for x, y in zip(d[t0], d[t1]))
        total = sum(u + s for u, s in per.values())
        print(f'{key}: {b - a:.2f} s, sampled {t1 - t0:.2f} s, {total:.2f} cores in all')
        for pid in sorted({p for p, _ in per}, key=int):
            mine = sorted(((u + s, u, s, tid) for (p, tid), (u, s) in per.items() if p == pid), reverse=True)
            top = ', '.join(f'{tid}:{c:.2f} ({u:.2f}+{s:.2f})' for c, u, s, tid in mine[:6] if c >= 0.05)
            print(f'  pid {pid} {sum(c for c, *_ in mine):5.2f} cores  top {top}')


def windows(data, pid, threshold=0.5):
    times = sorted({t for (p, _), d in data.items() if p == pid for t in d})
    busy, out = [], []
    for a, b in zip(times, times[1:]):
        per = {tid: (d[b] - d[a]) / HZ for (p, tid), d in data.items() if p == pid and a in d and b in d}
        cores = sum(per.values()) / (b - a)
        if cores > threshold:
            busy.append((a, b, per))
        elif busy:
            out.append(busy)
            busy = []
    if busy:
        out.append(busy)
    return out


def main(path):
    data = load(path)
    t0 = min(t for d in data.values() for t in d)
    for pid in sorted({p for p, _ in data}, key=int):
        for w in windows(data, pid):
            secs = w[-1][1] - w[0][0]
            threads = collections.Counter()
            for _, _, per in w:
                threads.update(per)
            total = sum(threads.values())
            top = ', '.join(f'{tid}:{v:.2f}' for tid, v in threads.most_common(4))
            print(f'pid {pid} {w[0][0] - t0:6.1f}s +{secs:4.1f}s  {total:6.2f} core-s  {total / secs:5.1f} cores  top {top}')


if __name__ == '__main__':
    if len(sys.argv) == 4 and sys.argv[1] == '--marks':
        by_upload(sys.argv[3], sys.argv[2])
    else:
        main(sys.argv[1])
