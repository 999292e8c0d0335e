import { Alert, Badge, Button, Group, Modal, PinInput, Stack, Tabs, Text } from '@mantine/core';
import { tapPatternPoint } from '@mise/shared/people/pattern';
import type { Employee } from '@mise/shared/people/schemas';
import { pinLength } from '@mise/shared/tasks/constants';
import { validatePattern, validatePin } from '@mise/shared/tasks/rules';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../../../shared/i18n/error-message';
import { LoadingButton } from '../../../shared/ui/loading-button';
import { notifySuccess } from '../../../shared/ui/notify';
import { useSetEmployeeSecret } from '../api/set-employee-secret';
import { PatternGrid } from './pattern-grid';

/** What the modal needs of an employee: never the secret, only whether one is set. */
export type AuthEmployee = Pick<
  Employee,
  'id' | 'name' | 'surname' | 'using_password' | 'has_secret'
>;

type EmployeeAuthModalProps = {
  storeId: string;
  /** The employee whose PIN or pattern is set; null when closed. */
  employee: AuthEmployee | null;
  onClose: () => void;
  onSaved: (employee: Employee) => void;
};

type AuthTab = 'pin' | 'pattern';

/**
 * Employee authentication (spec 000 §5, spec 001 §2.11): a 4-digit PIN (digits only,
 * auto-advance) or a pattern on the 9-point grid. The existing secret is never shown.
 */
export function EmployeeAuthModal({ storeId, employee, onClose, onSaved }: EmployeeAuthModalProps) {
  const { t } = useTranslation();
  return (
    <Modal
      opened={employee !== null}
      onClose={onClose}
      title={
        employee
          ? t('employees.auth.titleOf', {
              name: `${employee.name.trim()} ${employee.surname}`.trim(),
            })
          : t('employees.auth.title')
      }
      centered
      data-testid="auth-modal"
    >
      {employee ? (
        <AuthForm
          key={employee.id}
          storeId={storeId}
          employee={employee}
          onClose={onClose}
          onSaved={onSaved}
        />
      ) : null}
    </Modal>
  );
}

function AuthForm({
  storeId,
  employee,
  onClose,
  onSaved,
}: {
  storeId: string;
  employee: AuthEmployee;
  onClose: () => void;
  onSaved: (employee: Employee) => void;
}) {
  const { t } = useTranslation();
  const secretMutation = useSetEmployeeSecret(storeId);
  const [tab, setTab] = useState<AuthTab>(
    employee.has_secret && !employee.using_password ? 'pattern' : 'pin',
  );
  const [pin, setPin] = useState('');
  const [pattern, setPattern] = useState<number[]>([]);
  const [error, setError] = useState<string | null>(null);

  function handleTab(value: string | null) {
    setTab(value === 'pattern' ? 'pattern' : 'pin');
    setError(null);
  }

  function handleTap(point: number) {
    setPattern((current) => tapPatternPoint(current, point));
    setError(null);
  }

  async function handleSubmit() {
    const code = tab === 'pin' ? validatePin(pin) : validatePattern(pattern);
    if (code) {
      setError(t(`errors.${code}`));
      return;
    }
    try {
      const saved = await secretMutation.mutateAsync({
        employeeId: employee.id,
        body: tab === 'pin' ? { pin } : { pattern },
      });
      onSaved(saved);
      notifySuccess(t('employees.auth.saved'));
      onClose();
    } catch (failure) {
      setError(errorMessage(t, failure));
    }
  }

  const status = !employee.has_secret
    ? t('employees.auth.noSecret')
    : employee.using_password
      ? t('employees.auth.pinSet')
      : t('employees.auth.patternSet');

  return (
    <Stack gap="md">
      <Group gap="xs">
        <Text size="sm">{t('employees.auth.current')}</Text>
        <Badge
          color={employee.has_secret ? 'teal' : 'gray'}
          variant="light"
          data-testid="auth-status"
        >
          {status}
        </Badge>
      </Group>
      <Tabs value={tab} onChange={handleTab}>
        <Tabs.List grow mb="md">
          <Tabs.Tab value="pin" data-testid="auth-tab-pin">
            {t('employees.auth.pin')}
          </Tabs.Tab>
          <Tabs.Tab value="pattern" data-testid="auth-tab-pattern">
            {t('employees.auth.pattern')}
          </Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="pin">
          <Stack align="center" gap="xs">
            <Text size="sm" c="dimmed">
              {t('employees.auth.pinHint')}
            </Text>
            <PinInput
              length={pinLength}
              type="number"
              mask
              oneTimeCode={false}
              value={pin}
              onChange={(value) => {
                setPin(value);
                setError(null);
              }}
              error={error !== null}
              ariaLabel={t('employees.auth.pin')}
              getInputProps={(index) => ({
                'data-testid': `auth-pin-${index}`,
                'aria-label': t('employees.auth.pinDigit', { index: index + 1 }),
              })}
              data-testid="auth-pin"
            />
          </Stack>
        </Tabs.Panel>
        <Tabs.Panel value="pattern">
          <Stack align="center" gap="xs">
            <Text size="sm" c="dimmed">
              {t('employees.auth.patternHint')}
            </Text>
            <PatternGrid pattern={pattern} onTap={handleTap} />
            <Button
              variant="subtle"
              size="xs"
              onClick={() => {
                setPattern([]);
                setError(null);
              }}
              disabled={pattern.length === 0}
              data-testid="auth-pattern-clear"
            >
              {t('employees.auth.clear')}
            </Button>
          </Stack>
        </Tabs.Panel>
      </Tabs>
      {error ? (
        <Alert color="red" variant="light" data-testid="auth-error">
          {error}
        </Alert>
      ) : null}
      <Group justify="flex-end" gap="sm">
        <Button variant="default" onClick={onClose} data-testid="auth-cancel">
          {t('common.cancel')}
        </Button>
        <LoadingButton
          onClick={handleSubmit}
          loading={secretMutation.isPending}
          data-testid="auth-submit"
        >
          {t('common.save')}
        </LoadingButton>
      </Group>
    </Stack>
  );
}
