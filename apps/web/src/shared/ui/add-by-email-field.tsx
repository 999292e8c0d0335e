import { ActionIcon, Badge, Button, Card, Group, Text, TextInput } from '@mantine/core';
import { IconTrash, IconUserPlus } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { openConfirmDialog } from './confirm-dialog';
import { ErrorText } from './error-text';

type AddByEmailFieldProps = {
  label: string;
  email: string;
  onEmailChange: (value: string) => void;
  onAdd: () => void;
  isPending: boolean;
  /** The required-field message, shown when Add was pressed on a blank e-mail. */
  missingMessage: string | null;
  isAutoFocused?: boolean;
  /** Test ids: `<prefix>-email`, `<prefix>-submit`. */
  testIdPrefix: string;
};

/** An e-mail field with its Add button (Enter adds): owners of a store, managers of a database. */
export function AddByEmailField({
  label,
  email,
  onEmailChange,
  onAdd,
  isPending,
  missingMessage,
  isAutoFocused = false,
  testIdPrefix,
}: AddByEmailFieldProps) {
  const { t } = useTranslation();
  return (
    <>
      <Group align="flex-end">
        <TextInput
          label={label}
          placeholder={t('fields.email')}
          type="email"
          value={email}
          onChange={(event) => onEmailChange(event.currentTarget.value)}
          onKeyDown={(event) => {
            if (event.key === 'Enter') onAdd();
          }}
          style={{ flex: 1 }}
          data-autofocus={isAutoFocused || undefined}
          data-testid={`${testIdPrefix}-email`}
        />
        <Button
          leftSection={<IconUserPlus size={16} />}
          onClick={onAdd}
          loading={isPending}
          data-testid={`${testIdPrefix}-submit`}
        >
          {t('common.add')}
        </Button>
      </Group>
      <ErrorText>{missingMessage}</ErrorText>
    </>
  );
}

type InvitedAccountCardProps = {
  email: string;
  testId: string;
  /** Withdraws the invitation, after a confirmation; absent where the viewer may not. */
  onWithdraw?: () => void;
};

/**
 * A pending invitation in a list of owners or managers (issue 13): an account outside the
 * adder's tenant is linked only once its holder accepts, and until then the adder sees the
 * e-mail it typed and "Invited", nothing of the account (no name, link or count), and may
 * withdraw the invitation (its link then adds nobody).
 */
export function InvitedAccountCard({ email, testId, onWithdraw }: InvitedAccountCardProps) {
  const { t } = useTranslation();
  return (
    <Card withBorder padding="xs" data-testid={testId}>
      <Group justify="space-between" wrap="nowrap">
        <Text size="sm" style={{ minWidth: 0, overflowWrap: 'anywhere' }}>
          {email}
        </Text>
        <Group gap="xs" wrap="nowrap" style={{ flexShrink: 0 }}>
          <Badge variant="light" color="blue">
            {t('common.invited')}
          </Badge>
          {onWithdraw ? (
            <ActionIcon
              variant="subtle"
              color="red"
              aria-label={t('invitations.withdraw')}
              onClick={() =>
                openConfirmDialog({
                  title: t('invitations.withdraw'),
                  message: t('invitations.withdrawConfirm', { email }),
                  isDanger: true,
                  onConfirm: onWithdraw,
                })
              }
              data-testid={`${testId}-withdraw`}
            >
              <IconTrash size={16} />
            </ActionIcon>
          ) : null}
        </Group>
      </Group>
    </Card>
  );
}
