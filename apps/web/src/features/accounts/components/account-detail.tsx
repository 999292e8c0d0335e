import { Button, Card, Group, SimpleGrid, Stack, Switch, TextInput } from '@mantine/core';
import { accountRoleLabel, canCreateLoginToken } from '@mise/shared/navigation/rules';
import type { User } from '@mise/shared/users/schemas';
import { IconKey, IconLock } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { isApiError } from '../../../shared/api/api-error';
import { reloadPage } from '../../../shared/auth/logout';
import { errorMessage } from '../../../shared/i18n/error-message';
import { openConfirmDialog } from '../../../shared/ui/confirm-dialog';
import { LoadingButton } from '../../../shared/ui/loading-button';
import { notifyError, notifySuccess, saveErrorDurationMs } from '../../../shared/ui/notify';
import { PageHeader } from '../../../shared/ui/page-header';
import { useApiErrorNotification } from '../../../shared/ui/use-api-error-notification';
import { useRecordDraft } from '../../../shared/ui/use-record-draft';
import { useUnsavedChangesPrompt } from '../../../shared/ui/use-unsaved-changes-prompt';
import { useCreateLoginToken } from '../api/create-login-token';
import { useRequirePasswordChange } from '../api/require-password-change';
import { useUpdateUser } from '../api/update-user';
import { AccountStores } from './account-stores';
import { IllustrationUpload } from './illustration-upload';
import { LoginTokenDialog } from './login-token-dialog';

type AccountDetailProps = {
  account: User;
  viewer: User;
};

type Values = { name: string; surname: string; phone: string; isActive: boolean };

function accountValues(account: User): Values {
  return {
    name: account.name,
    surname: account.surname,
    phone: account.phone_number,
    isActive: account.active,
  };
}

/** Account detail (spec 000 §2): picture, actions, active toggle, fields, stores. */
export function AccountDetail({ account, viewer }: AccountDetailProps) {
  const { t } = useTranslation();
  const { values, setValues, isDirty, adopt } = useRecordDraft(account, accountValues);
  useUnsavedChangesPrompt(isDirty);
  const [loginToken, setLoginToken] = useState<string | null>(null);
  const updateUserMutation = useUpdateUser(account.id);
  const createLoginTokenMutation = useCreateLoginToken();
  const requirePasswordChangeMutation = useRequirePasswordChange();

  const notifyApiError = useApiErrorNotification();
  const isOwnAccount = account.id === viewer.id;
  const isAdminViewer = viewer.role === 'admin';
  // The server refuses any `active` change on one's own account and to
  // managers and customers (spec 000 §2).
  const canChangeActive =
    !isOwnAccount && (viewer.role === 'admin' || viewer.role === 'distributor');

  function handleSave() {
    if (values.name.trim() === '' || values.surname.trim() === '') {
      notifyError(t('errors.account/fill-all-fields'), { autoClose: saveErrorDurationMs });
      return;
    }
    updateUserMutation.mutate(
      {
        version: account.version,
        name: values.name.trim(),
        surname: values.surname.trim(),
        phone_number: values.phone.trim(),
        ...(canChangeActive && values.isActive !== account.active
          ? { active: values.isActive }
          : {}),
      },
      {
        onSuccess: (saved) => {
          adopt(saved);
          notifySuccess(t('common.savedSuccessfully'));
        },
        onError: (error) =>
          notifyError(
            isApiError(error, 'conflict/stale-version')
              ? t('errors.conflict/stale-version')
              : errorMessage(t, error),
            { autoClose: saveErrorDurationMs },
          ),
      },
    );
  }

  function handleCreateLoginToken() {
    createLoginTokenMutation.mutate(account.id, {
      onSuccess: ({ token }) => setLoginToken(token),
      onError: notifyApiError,
    });
  }

  function handleChangePassword() {
    openConfirmDialog({
      title: t('account.changePassword'),
      message: t('account.changePasswordConfirm'),
      confirmLabel: t('account.changePasswordConfirmButton'),
      onConfirm: () =>
        requirePasswordChangeMutation.mutate(undefined, {
          onSuccess: reloadPage,
          onError: notifyApiError,
        }),
    });
  }

  return (
    <>
      <PageHeader
        title={`${account.name} ${account.surname}`.trim()}
        subtitle={t(`roles.${accountRoleLabel(account.role)}`)}
        actions={
          <>
            {isOwnAccount ? (
              <Button
                variant="default"
                leftSection={<IconLock size={16} />}
                onClick={handleChangePassword}
                loading={requirePasswordChangeMutation.isPending}
                data-testid="account-change-password"
              >
                {t('account.changePassword')}
              </Button>
            ) : null}
            {canCreateLoginToken(viewer.role) ? (
              <Button
                variant="default"
                leftSection={<IconKey size={16} />}
                onClick={handleCreateLoginToken}
                loading={createLoginTokenMutation.isPending}
                data-testid="account-create-token"
              >
                {t('account.createToken')}
              </Button>
            ) : null}
            <LoadingButton
              onClick={handleSave}
              loading={updateUserMutation.isPending}
              data-testid="account-save"
            >
              {t('common.save')}
            </LoadingButton>
          </>
        }
      />
      <Stack gap="lg">
        <Card withBorder radius="md">
          <Group align="flex-start" gap="xl" wrap="wrap">
            <IllustrationUpload user={account} />
            <Stack gap="sm" style={{ flex: 1, minWidth: 260 }}>
              <Switch
                label={t('account.active')}
                checked={values.isActive}
                disabled={!canChangeActive}
                onChange={(event) => {
                  const isActive = event.currentTarget.checked;
                  setValues((current) => ({ ...current, isActive }));
                }}
                data-testid="account-active"
              />
              <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
                <TextInput
                  label={t('accounts.name')}
                  value={values.name}
                  onChange={(event) => {
                    const name = event.currentTarget.value;
                    setValues((current) => ({ ...current, name }));
                  }}
                  data-testid="account-name"
                />
                <TextInput
                  label={t('accounts.surname')}
                  value={values.surname}
                  onChange={(event) => {
                    const surname = event.currentTarget.value;
                    setValues((current) => ({ ...current, surname }));
                  }}
                  data-testid="account-surname"
                />
                <TextInput
                  label={t('accounts.email')}
                  value={account.email}
                  readOnly
                  data-testid="account-email"
                />
                <TextInput
                  label={t('accounts.phone')}
                  type="tel"
                  value={values.phone}
                  onChange={(event) => {
                    const phone = event.currentTarget.value;
                    setValues((current) => ({ ...current, phone }));
                  }}
                  data-testid="account-phone"
                />
              </SimpleGrid>
            </Stack>
          </Group>
        </Card>
        {isAdminViewer ? <AccountStores userId={account.id} /> : null}
      </Stack>
      <LoginTokenDialog token={loginToken} onClose={() => setLoginToken(null)} />
    </>
  );
}
