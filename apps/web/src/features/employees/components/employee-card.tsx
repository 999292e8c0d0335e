import {
  Badge,
  Button,
  Card,
  Group,
  Select,
  Stack,
  Switch,
  TextInput,
  Tooltip,
} from '@mantine/core';
import { IconKey } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { ImageUpload } from '../../../shared/ui/image-upload';
import type { EmployeeDraft } from './employee-draft';

type EmployeeCardProps = {
  employee: EmployeeDraft;
  roleOptions: { value: string; label: string }[];
  isEditable: boolean;
  /** Highlights a missing role after a refused save. */
  isRoleMissing: boolean;
  onChange: (change: Partial<EmployeeDraft>) => void;
  onUpload: (file: File, onProgress: (percent: number) => void) => Promise<unknown>;
  onAuthenticate: () => void;
};

/** One employee (spec 001 §2.11): illustration, names, role, active flag, authentication. */
export function EmployeeCard({
  employee,
  roleOptions,
  isEditable,
  isRoleMissing,
  onChange,
  onUpload,
  onAuthenticate,
}: EmployeeCardProps) {
  const { t } = useTranslation();
  const isSaved = employee.id !== undefined;
  const options =
    employee.role_id !== null && !roleOptions.some((option) => option.value === employee.role_id)
      ? [...roleOptions, { value: employee.role_id, label: employee.role_name ?? '' }]
      : roleOptions;
  const fullName = `${employee.name.trim()} ${employee.surname.trim()}`.trim();

  return (
    <Card
      withBorder
      radius="md"
      padding="md"
      opacity={employee.active ? 1 : 0.7}
      data-testid="employee-card"
      data-employee-id={employee.id ?? ''}
    >
      <Stack align="center" gap="sm">
        <ImageUpload
          imageUrl={employee.illustration_url}
          name={fullName}
          label={t('employees.changePhoto')}
          onUpload={onUpload}
          isDisabled={!isEditable || !isSaved}
          testId="employee-illustration"
        />
        <TextInput
          label={t('employees.name')}
          value={employee.name}
          onChange={(event) => onChange({ name: event.currentTarget.value })}
          readOnly={!isEditable}
          w="100%"
          data-testid="employee-name"
        />
        <TextInput
          label={t('employees.surname')}
          value={employee.surname}
          onChange={(event) => onChange({ surname: event.currentTarget.value })}
          readOnly={!isEditable}
          w="100%"
          data-testid="employee-surname"
        />
        <Select
          label={t('employees.role')}
          placeholder={t('employees.noRole')}
          data={options}
          value={employee.role_id}
          onChange={(value) =>
            onChange({
              role_id: value,
              role_name: options.find((option) => option.value === value)?.label ?? null,
            })
          }
          clearable
          disabled={!isEditable}
          error={isRoleMissing ? t('employees.roleRequired') : undefined}
          w="100%"
          data-testid="employee-role"
        />
        <Group justify="space-between" w="100%">
          <Switch
            label={t('common.active')}
            checked={employee.active}
            onChange={(event) => onChange({ active: event.currentTarget.checked })}
            disabled={!isEditable}
            data-testid="employee-active"
          />
          <Badge
            variant="light"
            color={employee.has_secret ? 'teal' : 'gray'}
            data-testid="employee-secret-status"
          >
            {employee.has_secret
              ? employee.using_password
                ? t('employees.auth.pinSet')
                : t('employees.auth.patternSet')
              : t('employees.auth.noSecret')}
          </Badge>
        </Group>
        <Tooltip label={t('employees.saveFirst')} disabled={isSaved}>
          <Button
            variant="light"
            fullWidth
            leftSection={<IconKey size={16} />}
            onClick={onAuthenticate}
            disabled={!isEditable || !isSaved}
            data-testid="employee-auth"
          >
            {t('employees.authentication')}
          </Button>
        </Tooltip>
      </Stack>
    </Card>
  );
}
