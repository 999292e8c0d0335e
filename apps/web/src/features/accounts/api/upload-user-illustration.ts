import type { User } from '@mise/shared/users/schemas';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiUpload } from '../../../shared/api/api-client';
import { meQueryKey } from '../../../shared/auth/get-me';
import { userQueryKey } from './get-user';
import { usersQueryKey } from './get-users';

export const illustrationTypes = ['image/png', 'image/jpeg', 'image/webp'] as const;
export const illustrationMaxBytes = 5 * 1024 * 1024;

/** POST /api/users/:id/illustration (multipart field `file`). */
export async function uploadUserIllustration(
  id: string,
  file: File,
  onProgress?: (percent: number) => void,
): Promise<User> {
  const formData = new FormData();
  formData.append('file', file);
  const { user } = await apiUpload<{ user: User }>(
    `/users/${encodeURIComponent(id)}/illustration`,
    { formData, onProgress },
  );
  return user;
}

export function useUploadUserIllustration(id: string, onProgress?: (percent: number) => void) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (file: File) => uploadUserIllustration(id, file, onProgress),
    onSuccess: (user) => {
      queryClient.setQueryData(userQueryKey(id), user);
      void queryClient.invalidateQueries({ queryKey: [...usersQueryKey, 'list'] });
      const me = queryClient.getQueryData<User | null>(meQueryKey);
      if (me?.id === user.id) queryClient.setQueryData(meQueryKey, user);
    },
  });
}
