import type {
  SensorCredentialsBody,
  SensorCredentialsResponse,
} from '@mise/shared/organisation/schemas';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../api/api-client';

/** SHA-256 of a text, as lowercase hex (the sensor provider's password is sent hashed). */
export async function sha256Hex(text: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text));
  return Array.from(new Uint8Array(digest), (byte) => byte.toString(16).padStart(2, '0')).join('');
}

/** POST /api/koovea/validCredentials: the status 'false' means the credentials are wrong. */
export function validateSensorCredentials(
  body: SensorCredentialsBody,
): Promise<SensorCredentialsResponse> {
  return apiRequest('/koovea/validCredentials', { method: 'POST', body });
}

export function useValidateSensorCredentials() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: validateSensorCredentials,
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: ['sensor'] });
      void queryClient.invalidateQueries({ queryKey: ['distributors'] });
    },
  });
}
