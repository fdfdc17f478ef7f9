#!/usr/bin/env python3
"""Summarises profile-up.sh's threads.tsv: for each process, the windows in which it used more
than half a core (CPU cores in use, sampled every 0.5 s), and per window its core-seconds and the
busiest threads. Usage: python3 bench/device/thread-cpu.py threads.tsv"""
import collections
import sys

HZ = 100  # clock ticks per second of utime/stime in /proc/<pid>/task/<tid>/stat


def load(path):
    data = collections.defaultdict(dict)
    for line in open(path):
        f = line.split()
        if len(f) >= 6:
            data[(f[1], f[2])][float(f[0])] = int(f[4]) + int(f[5])
    return data


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
    main(sys.argv[1])
