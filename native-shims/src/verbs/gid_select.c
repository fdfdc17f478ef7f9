/*
 * gid_select.c — GID choice from sysfs (see gid_select.h). Pure file reading and ranking, so it
 * is tested against fixture trees (test/fixtures/sysfs-*) on machines without an RDMA device.
 */
#include "gid_select.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int vgw_gid_parse(const char *text, uint8_t gid[16]) {
  if (text == NULL) return -EINVAL;
  const char *p = text;
  for (int g = 0; g < 8; g++) {
    unsigned v = 0;
    for (int i = 0; i < 4; i++, p++) {
      char c = *p;
      int d = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
      if (d < 0) return -EINVAL;
      v = v << 4 | (unsigned)d;
    }
    gid[2 * g] = (uint8_t)(v >> 8);
    gid[2 * g + 1] = (uint8_t)v;
    if (g < 7 && *p++ != ':') return -EINVAL;
  }
  return *p == '\0' || *p == '\n' ? 0 : -EINVAL;
}

/* Reads a small sysfs file into buf (trailing newline removed). 0 or -errno. */
static int read_small(const char *path, char *buf, size_t cap) {
  FILE *f = fopen(path, "r");
  if (f == NULL) return -errno;
  size_t n = fread(buf, 1, cap - 1, f);
  int err = ferror(f) ? -EIO : 0;
  fclose(f);
  if (err) return err;
  buf[n] = '\0';
  while (n > 0 && (buf[n - 1] == '\n' || buf[n - 1] == ' ')) buf[--n] = '\0';
  return 0;
}

static int is_zero(const uint8_t g[16]) {
  for (int i = 0; i < 16; i++)
    if (g[i]) return 0;
  return 1;
}
static int is_link_local(const uint8_t g[16]) { return g[0] == 0xfe && (g[1] & 0xc0) == 0x80; }
static int is_ipv4_mapped(const uint8_t g[16]) {
  static const uint8_t prefix[12] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff};
  return memcmp(g, prefix, sizeof prefix) == 0;
}

/* Tier of one entry (see the header), or -1 when the entry is unusable. */
static int tier_of(const uint8_t g[16], int v2) {
  if (is_zero(g)) return -1;
  if (!v2) return 2;
  if (is_ipv4_mapped(g)) return 1;
  return is_link_local(g) ? 3 : 0;
}

/* Reads <port_dir>/<sub>/<i> into text; 0 or negative (too long a path counts as unreadable). */
static int read_indexed(const char *port_dir, const char *sub, int i, char *text, size_t cap) {
  char path[PATH_MAX];
  int n = snprintf(path, sizeof path, "%s/%s/%d", port_dir, sub, i);
  if (n < 0 || (size_t)n >= sizeof path) return -ENAMETOOLONG;
  return read_small(path, text, cap);
}

/* Reads entry i: 0 with gid and v2 set, or -1 when unused/unreadable. */
static int read_entry(const char *port_dir, int i, uint8_t gid[16], int *v2) {
  char text[128];
  if (read_indexed(port_dir, "gids", i, text, sizeof text) != 0 || vgw_gid_parse(text, gid) != 0) return -1;
  /* No types file (old kernels, InfiniBand): treat as v1. */
  *v2 = read_indexed(port_dir, "gid_attrs/types", i, text, sizeof text) == 0 && strcmp(text, "RoCE v2") == 0;
  return 0;
}

int vgw_gid_select(const char *root, const char *dev, uint32_t port, int want_index, vgw_gid_choice_t *out,
                   char *why, size_t cap) {
  char port_dir[PATH_MAX - 32], gids_dir[PATH_MAX];
  int n = snprintf(port_dir, sizeof port_dir, "%s/%s/ports/%u", root, dev, port);
  if (n < 0 || (size_t)n >= sizeof port_dir) {
    snprintf(why, cap, "sysfs path of %s port %u too long", dev, port);
    return -ENAMETOOLONG;
  }
  snprintf(gids_dir, sizeof gids_dir, "%s/gids", port_dir);
  if (want_index < VGW_GID_AUTO) {
    snprintf(why, cap, "GID index %d is invalid (use -1 for automatic choice)", want_index);
    return -EINVAL;
  }
  DIR *d = opendir(gids_dir);
  if (d == NULL) {
    snprintf(why, cap, "RDMA device %s has no port %u (no %s)", dev, port, gids_dir);
    return -ENODEV;
  }
  vgw_gid_choice_t best = {.index = -1, .tier = 4};
  struct dirent *e;
  while ((e = readdir(d)) != NULL) {
    char *end;
    long i = strtol(e->d_name, &end, 10);
    if (e->d_name[0] < '0' || e->d_name[0] > '9' || *end != '\0' || i > INT_MAX) continue;
    uint8_t gid[16];
    int v2;
    if (read_entry(port_dir, (int)i, gid, &v2) != 0) continue;
    int tier = tier_of(gid, v2);
    int take = want_index >= 0 ? i == want_index && tier >= 0
                               : tier >= 0 && (tier < best.tier || (tier == best.tier && i < best.index));
    if (take) {
      best = (vgw_gid_choice_t){.index = (int)i, .tier = want_index >= 0 ? -1 : tier, .roce_v2 = v2};
      memcpy(best.gid, gid, 16);
    }
  }
  closedir(d);
  if (best.index < 0) {
    if (want_index >= 0) snprintf(why, cap, "GID index %d of %s port %u is empty", want_index, dev, port);
    else snprintf(why, cap, "%s port %u has no usable GID (is the interface up and addressed?)", dev, port);
    return -ENOENT;
  }
  *out = best;
  return 0;
}
