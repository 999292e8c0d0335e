import { ActionIcon, Card, Group, Stack, Text } from '@mantine/core';
import type { DatabaseDetail } from '@mise/shared/organisation/schemas';
import { IconTrash } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { AddByEmailField, InvitedAccountCard } from '../../../shared/ui/add-by-email-field';
import { openConfirmDialog } from '../../../shared/ui/confirm-dialog';
import { notifyInfo, notifySuccess } from '../../../shared/ui/notify';
import { useApiErrorNotification } from '../../../shared/ui/use-api-error-notification';
import { useAddDatabaseManager } from '../api/add-database-manager';
import { useRemoveDatabaseManager } from '../api/remove-database-manager';
import { useWithdrawManagerInvitation } from '../api/withdraw-manager-invitation';

type DatabaseManagersProps = {
  database: DatabaseDetail;
  /** Only admins and distributors may add or remove managers. */
  isDisabled: boolean;
};

/**
 * The database's managers: a list with remove buttons, then the pending invitations (e-mail and
 * "Invited" only, issue 13), and an add-by-e-mail field.
 */
export function DatabaseManagers({ database, isDisabled }: DatabaseManagersProps) {
  const { t } = useTranslation();
  const [email, setEmail] = useState('');
  const [isEmailMissing, setIsEmailMissing] = useState(false);
  const addMutation = useAddDatabaseManager(database.id);
  const removeMutation = useRemoveDatabaseManager(database.id);
  const withdrawMutation = useWithdrawManagerInvitation(database.id);
  const notifyApiError = useApiErrorNotification();

  function handleAdd() {
    if (addMutation.isPending) return;
    const trimmed = email.trim().toLowerCase();
    setIsEmailMissing(trimmed === '');
    if (trimmed === '') return;
    addMutation.mutate(trimmed, {
      onSuccess: ({ status }) => {
        // An account outside the adder's tenant is invited: linked once its holder accepts.
        if (status === 'invited') notifyInfo(t('database.managerInvited', { email: trimmed }));
        else notifySuccess(t('database.managerAdded'));
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

  function handleRemove(manager: DatabaseDetail['managers'][number]) {
    openConfirmDialog({
      title: t('database.removeManager'),
      message: t('database.removeManagerConfirm', { email: manager.email }),
      isDanger: true,
      onConfirm: () => removeMutation.mutate(manager.id, { onError: notifyApiError }),
    });
  }

  return (
    <Stack gap="sm" data-testid="database-managers">
      {database.managers.length === 0 ? (
        <Text size="sm" c="dimmed">
          {t('database.noManagers')}
        </Text>
      ) : (
        database.managers.map((manager) => (
          <Card key={manager.id} withBorder padding="xs" data-testid="database-manager">
            <Group justify="space-between" wrap="nowrap">
              <div>
                <Text fw={600} size="sm">
                  {`${manager.name} ${manager.surname}`.trim()}
                </Text>
                <Text size="xs" c="dimmed">
                  {manager.email}
                </Text>
              </div>
              {isDisabled ? null : (
                <ActionIcon
                  variant="subtle"
                  color="red"
                  onClick={() => handleRemove(manager)}
                  aria-label={t('common.remove')}
                >
                  <IconTrash size={16} />
                </ActionIcon>
              )}
            </Group>
          </Card>
        ))
      )}
      {(database.invited_managers ?? []).map((invitation) => (
        <InvitedAccountCard
          key={invitation.email}
          email={invitation.email}
          testId="database-manager-invited"
          onWithdraw={isDisabled ? undefined : () => handleWithdraw(invitation.email)}
        />
      ))}
      {isDisabled ? null : (
        <AddByEmailField
          label={t('database.addManager')}
          email={email}
          onEmailChange={(value) => {
            setEmail(value);
            setIsEmailMissing(false);
          }}
          onAdd={handleAdd}
          isPending={addMutation.isPending}
          missingMessage={isEmailMissing ? t('database.managerEmailRequired') : null}
          testIdPrefix="add-manager"
        />
      )}
    </Stack>
  );
}
