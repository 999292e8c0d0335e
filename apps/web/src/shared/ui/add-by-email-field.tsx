import { Badge, Button, Card, Group, Text, TextInput } from '@mantine/core';
import { IconUserPlus } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
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
};

/**
 * A pending invitation in a list of owners or managers (issue 13): an account outside the
 * adder's tenant is linked only once its holder accepts, and until then the adder sees the
 * e-mail it typed and "Invited", nothing of the account (no name, link, count or remove).
 */
export function InvitedAccountCard({ email, testId }: InvitedAccountCardProps) {
  const { t } = useTranslation();
  return (
    <Card withBorder padding="xs" data-testid={testId}>
      <Group justify="space-between" wrap="nowrap">
        <Text size="sm" style={{ minWidth: 0, overflowWrap: 'anywhere' }}>
          {email}
        </Text>
        <Badge variant="light" color="blue" style={{ flexShrink: 0 }}>
          {t('common.invited')}
        </Badge>
      </Group>
    </Card>
  );
}
