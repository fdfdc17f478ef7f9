/* dc_token.c — DC v1 token of a verbs registration (see dc_token.h), through the shared codec. */
#include "dc_token.h"

#include <errno.h>
#include <string.h>

#include "cuobj_token.h"

int vgw_dc_token_build(const vgw_dc_target_t *t, const vgw_dc_window_t *w, char *out, size_t cap) {
  if (t == NULL || w == NULL || out == NULL) return -EINVAL;
  if (w->size == 0 || w->size > UINT32_MAX || w->offset > w->mr_size || w->size > w->mr_size - w->offset)
    return -EINVAL;
  if (t->dctn > 0xffffffu) return -EINVAL;
  if (cap < CUOBJ_TOKEN_LEN + 1) return -ENOSPC;
  cuobj_token_t tok = {.addr = w->mr_addr + w->offset, .size = (uint32_t)w->size, .rkey = w->rkey, .lid = t->lid,
                       .gid_present = 1, .dctn = t->dctn};
  memcpy(tok.gid, t->gid, 16);
  return cuobj_token_format(&tok, out, cap);
}
