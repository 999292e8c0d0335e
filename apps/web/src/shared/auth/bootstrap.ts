import type { DemoStatus } from '@mise/shared/auth/schemas';
import type { User } from '@mise/shared/users/schemas';
import type { QueryClient } from '@tanstack/react-query';
import { meQueryKey } from './get-me';

/** The element the server writes into a signed-in visitor's index.html (platform/web-app.ts). */
export const bootstrapElementId = 'mise-bootstrap';

/** GET /api/demo's query key (shared/ui/demo-banner.tsx). */
export const demoStatusQueryKey = ['demo-status'] as const;

/** GET /api/me and GET /api/demo as they answered, when the server had a valid session. */
type BootstrapData = { me?: { user?: User }; demo?: DemoStatus };

/**
 * Puts the first screen's data the page carries into the query cache, so the signed-in layout
 * renders without asking GET /api/me and GET /api/demo first. The element is read once and
 * removed. Answers whether the signed-in user was seeded.
 */
export function seedBootstrapData(
  queryClient: QueryClient,
  { withUser }: { withUser: boolean },
): boolean {
  const element = document.getElementById(bootstrapElementId);
  if (!element) return false;
  element.remove();
  let data: BootstrapData;
  try {
    data = JSON.parse(element.textContent ?? '') as BootstrapData;
  } catch {
    return false;
  }
  if (data.demo) queryClient.setQueryData(demoStatusQueryKey, data.demo);
  const user = data.me?.user;
  if (!withUser || !user) return false;
  queryClient.setQueryData(meQueryKey, user);
  return true;
}
