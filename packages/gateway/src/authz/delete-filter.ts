// DeleteObjects names many keys in one request, and S3 authorizes each key on its own (a key
// with a VersionId as s3:DeleteObjectVersion): keys the caller may not delete come back as
// per-key AccessDenied errors while the rest are deleted.
// The router hands the handler a backend view whose deleteObjects does that split.
import type {
  Backend,
  DeleteObjectsInput,
  DeleteObjectsOutput,
  RequestContext,
} from '@vgwrdma/backend-contract';

type KeyFilter = (object: { key: string; versionId?: string }) => boolean;

export function withDeleteFilter(backend: Backend, allowed: KeyFilter): Backend {
  const deleteObjects = async (
    ctx: RequestContext,
    input: DeleteObjectsInput,
  ): Promise<DeleteObjectsOutput> => {
    const verdicts = input.objects.map((o) => allowed(o));
    const permitted = input.objects.filter((_, i) => verdicts[i]);
    const refused = input.objects.filter((_, i) => !verdicts[i]);
    const out =
      permitted.length > 0
        ? await backend.deleteObjects(ctx, { ...input, objects: permitted })
        : { deleted: [], errors: [] };
    const denied = refused.map((o) => ({
      key: o.key,
      ...(o.versionId === undefined ? {} : { versionId: o.versionId }),
      code: 'AccessDenied',
      message: 'Access Denied.',
    }));
    return { deleted: out.deleted, errors: [...out.errors, ...denied] };
  };
  return new Proxy(backend, {
    get(target, prop) {
      if (prop === 'deleteObjects') return deleteObjects;
      const value: unknown = Reflect.get(target, prop, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}
