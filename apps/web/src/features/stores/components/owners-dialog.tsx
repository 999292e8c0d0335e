import { ActionIcon, Anchor, Card, Group, Modal, Stack, Text } from '@mantine/core';
import type { StoreDetail } from '@mise/shared/organisation/schemas';
import { IconTrash } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { AddByEmailField, InvitedAccountCard } from '../../../shared/ui/add-by-email-field';
import { openConfirmDialog } from '../../../shared/ui/confirm-dialog';
import { notifyError, notifyInfo, notifySuccess } from '../../../shared/ui/notify';
import { useApiErrorNotification } from '../../../shared/ui/use-api-error-notification';
import { useAddStoreOwner } from '../api/add-store-owner';
import { useRemoveStoreOwner } from '../api/remove-store-owner';
import { useWithdrawOwnerInvitation } from '../api/withdraw-owner-invitation';

type OwnersDialogProps = {
  opened: boolean;
  onClose: () => void;
  store: StoreDetail;
  /** Customers see owners without a link to their account. */
  areLinksShown: boolean;
  isDisabled: boolean;
};

type Owner = StoreDetail['owners'][number];

/**
 * The store's owners (spec 000 §2, §5): cards with name, e-mail, store count
 * and a remove button; adding by e-mail answers not-elligible, invited or ok.
 * Pending invitations follow the owners, e-mail and "Invited" only (issue 13).
 */
export function OwnersDialog({
  opened,
  onClose,
  store,
  areLinksShown,
  isDisabled,
}: OwnersDialogProps) {
  const { t } = useTranslation();
  const [email, setEmail] = useState('');
  const [isEmailMissing, setIsEmailMissing] = useState(false);
  const addMutation = useAddStoreOwner(store.id);
  const removeMutation = useRemoveStoreOwner(store.id);
  const withdrawMutation = useWithdrawOwnerInvitation(store.id);
  const notifyApiError = useApiErrorNotification();

  function handleAdd() {
    if (addMutation.isPending) return;
    const trimmed = email.trim().toLowerCase();
    setIsEmailMissing(trimmed === '');
    if (trimmed === '') return;
    addMutation.mutate(trimmed, {
      onSuccess: ({ status }) => {
        if (status === 'not-elligible') {
          notifyError(t('owners.notEligible'));
          return;
        }
        if (status === 'invited') notifyInfo(t('owners.invited', { email: trimmed }));
        else notifySuccess(t('owners.added'));
        setEmail('');
      },
      onError: notifyApiError,
    });
  }

  function handleWithdraw(invitedEmail: string) {
    withdrawMutation.mutate(invitedEmail, {
      onSuccess: () => notifySuccess(t('invitations.withdrawn', { email: invitedEmail })),
      onError: notifyApiError,
    });
  }

  function handleRemove(owner: Owner) {
    openConfirmDialog({
      title: t('owners.remove'),
      message: t('owners.removeConfirm', { email: owner.email }),
      isDanger: true,
      onConfirm: () => removeMutation.mutate(owner.id, { onError: notifyApiError }),
    });
  }

  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title={t('owners.title')}
      size="lg"
      centered
      closeOnEscape
      data-testid="owners-dialog"
    >
      <Stack gap="sm">
        {store.owners.length === 0 ? (
          <Text size="sm" c="dimmed">
            {t('owners.none')}
          </Text>
        ) : (
          store.owners.map((owner) => {
            const fullName = `${owner.name} ${owner.surname}`.trim();
            return (
              <Card key={owner.id} withBorder padding="xs" data-testid="owner-card">
                <Group justify="space-between" wrap="nowrap">
                  <div style={{ minWidth: 0 }}>
                    {areLinksShown ? (
                      <Anchor
                        component={Link}
                        to={`/account?id=${encodeURIComponent(owner.id)}`}
                        fw={600}
                        size="sm"
                        data-testid="owner-link"
                      >
                        {fullName}
                      </Anchor>
                    ) : (
                      <Text fw={600} size="sm">
                        {fullName}
                      </Text>
                    )}
                    <Text size="xs" c="dimmed">
                      {owner.email}
                    </Text>
                    <Text size="xs">{t('selection.storeCount', { count: owner.store_count })}</Text>
                  </div>
                  {isDisabled ? null : (
                    <ActionIcon
                      variant="subtle"
                      color="red"
                      onClick={() => handleRemove(owner)}
                      aria-label={t('common.remove')}
                      data-testid="owner-remove"
                    >
                      <IconTrash size={16} />
                    </ActionIcon>
                  )}
                </Group>
              </Card>
            );
          })
        )}
        {(store.invited_owners ?? []).map((invitation) => (
          <InvitedAccountCard
            key={invitation.email}
            email={invitation.email}
            testId="owner-invited"
            onWithdraw={isDisabled ? undefined : () => handleWithdraw(invitation.email)}
          />
        ))}
        {isDisabled ? null : (
          <AddByEmailField
            label={t('owners.addByEmail')}
            email={email}
            onEmailChange={setEmail}
            onAdd={handleAdd}
            isPending={addMutation.isPending}
            missingMessage={isEmailMissing ? t('owners.emailRequired') : null}
            isAutoFocused
            testIdPrefix="add-owner"
          />
        )}
      </Stack>
    </Modal>
  );
}
