import type { PunchCards, SavePunchCardsBody } from '@mise/shared/people/schemas';
import { useMutation } from '@tanstack/react-query';
import { apiRequest } from '../../../shared/api/api-client';

export type SavePunchCardsRequest = { storeId: string; body: SavePunchCardsBody };

/**
 * PUT /api/stores/:storeId/punchCards: the range's complete set of entries (what is not sent
 * is deleted). Refused with 'punch-card/incoherent' when a card is incoherent, 409 on a stale
 * version; nothing is written then. Answers the saved range, as GET does.
 */
export function savePunchCards({ storeId, body }: SavePunchCardsRequest): Promise<PunchCards> {
  return apiRequest<PunchCards>(`/stores/${encodeURIComponent(storeId)}/punchCards`, {
    method: 'PUT',
    body,
  });
}

/** The screen puts the saved range on screen itself, in place of its local edits. */
export function useSavePunchCards() {
  return useMutation({ mutationFn: savePunchCards });
}
