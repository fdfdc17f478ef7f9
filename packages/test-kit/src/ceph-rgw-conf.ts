// The ceph.conf of the test fixture's single-node cluster: one mon and one memstore OSD on
// loopback, cephx off, no mgr, radosgw (beast) on 127.0.0.1. Everything (data, sockets, pid files,
// logs) stays under the cluster's own directory, and both ports are chosen per run, so it never
// meets another cluster on this machine.
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';

export interface CephConfInput {
  dir: string;
  fsid: string;
  monPort: number;
  rgwPort: number;
}

/** The memstore OSD's capacity: objects live in the OSD's memory. */
const MEMSTORE_BYTES = 4 * 1024 ** 3;

function key(): string {
  return randomBytes(32).toString('base64');
}

export function cephConf({ dir, fsid, monPort, rgwPort }: CephConfInput): string {
  return `[global]
fsid = ${fsid}
mon host = v2:127.0.0.1:${monPort}
public network = 127.0.0.0/8
auth cluster required = none
auth service required = none
auth client required = none
auth allow insecure global id reclaim = true
ms bind ipv4 = true
ms bind ipv6 = false
# with cephx off, clients must not ask the mon for a secure-mode session (it refuses them with EACCES)
ms mon client mode = crc
ms client mode = crc
run dir = ${join(dir, 'run')}
admin socket = ${join(dir, 'run')}/$name.asok
log file = ${join(dir, 'log')}/$name.log
pid file = ${join(dir, 'run')}/$name.pid
osd pool default size = 1
osd pool default min size = 1
osd pool default pg num = 8
osd pool default pgp num = 8
osd pool default pg autoscale mode = off
mon allow pool size one = true
mon allow pool delete = true
mon warn on pool no redundancy = false
mon max pg per osd = 2000
osd crush chooseleaf type = 0
[mon]
mon data = ${dir}/$name
[osd]
osd data = ${dir}/$name
osd objectstore = memstore
memstore device bytes = ${MEMSTORE_BYTES}
osd op num shards = 2
osd op num threads per shard = 1
[client.rgw.a]
rgw frontends = beast endpoint=127.0.0.1:${rgwPort}
log file = ${join(dir, 'log')}/rgw.log
# SSE-C and SSE-KMS over plain http; the 'testing' KMS holds two keys made for this run only
rgw crypt require ssl = false
rgw crypt s3 kms backend = testing
# the data of overwritten and deleted objects goes back to the memstore within seconds (RGW's
# default waits two hours): a long run rewriting the same keys (the bench, the scale-out scene)
# would otherwise fill the OSD, which then drops every write and stalls reads
rgw gc obj min wait = 10
rgw gc processor period = 10
rgw crypt s3 kms encryption keys = testkey-1=${key()} testkey-2=${key()}
`;
}
