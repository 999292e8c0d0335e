import type { ShopIllustration } from '@mise/shared/shop/schemas';
import { useMutation } from '@tanstack/react-query';
import { apiUpload } from '../../../shared/api/api-client';

/** Whose shop folder the picture goes to: a distributor's, or a database's distributor's. */
export type ShopOwner = { kind: 'distributor' | 'database'; id: string };

/**
 * POST /api/distributors/:id/shop/illustrations or /api/databases/:id/shop/illustrations
 * (multipart field `file`): the stored picture, set on the item's draft and saved with it.
 */
export function uploadShopIllustration(
  owner: ShopOwner,
  file: File,
  onProgress?: (percent: number) => void,
): Promise<ShopIllustration> {
  const formData = new FormData();
  formData.append('file', file);
  const base = owner.kind === 'distributor' ? 'distributors' : 'databases';
  return apiUpload<ShopIllustration>(
    `/${base}/${encodeURIComponent(owner.id)}/shop/illustrations`,
    { formData, onProgress },
  );
}

export function useUploadShopIllustration(owner: ShopOwner) {
  return useMutation({
    mutationFn: ({ file, onProgress }: { file: File; onProgress?: (percent: number) => void }) =>
      uploadShopIllustration(owner, file, onProgress),
  });
}
