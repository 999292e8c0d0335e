import { Button, Card, Center, Group, SimpleGrid, Stack, Switch, Text } from '@mantine/core';
import type { Employee } from '@mise/shared/people/schemas';
import { IconUserPlus } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { isApiError } from '../../../shared/api/api-error';
import { errorMessage } from '../../../shared/i18n/error-message';
import { LoadingButton } from '../../../shared/ui/loading-button';
import { notifyError, notifySuccess, saveErrorDurationMs } from '../../../shared/ui/notify';
import { QueryContent } from '../../../shared/ui/query-content';
import { useUnsavedChangesPrompt } from '../../../shared/ui/use-unsaved-changes-prompt';
import { type Employees, useEmployees } from '../api/get-employees';
import { useSaveEmployees } from '../api/save-employees';
import { useUploadEmployeeIllustration } from '../api/upload-employee-illustration';
import { type AuthEmployee, EmployeeAuthModal } from './employee-auth-modal';
import { EmployeeCard } from './employee-card';
import {
  type EmployeeDraft,
  employeeDraft,
  employeesMissingRole,
  employeesSaveBody,
  hasBlankEmployeeName,
  newEmployeeDraft,
} from './employee-draft';

export type EmployeesTabProps = {
  storeId: string;
  /** The store screen is read-only for this user (spec 001 §2.11). */
  isReadOnly?: boolean;
};

/** Employees tab of the store screen (spec 001 §2.11, §5; spec 000 §5). */
export function EmployeesTab({ storeId, isReadOnly = false }: EmployeesTabProps) {
  const { t } = useTranslation();
  const query = useEmployees(storeId);
  return (
    <QueryContent query={query} isEmpty={() => false} emptyTitle={t('employees.empty')}>
      {(data) => <EmployeesForm storeId={storeId} data={data} isReadOnly={isReadOnly} />}
    </QueryContent>
  );
}

let localKeySequence = 0;

function EmployeesForm({
  storeId,
  data,
  isReadOnly,
}: {
  storeId: string;
  data: Employees;
  isReadOnly: boolean;
}) {
  const { t } = useTranslation();
  const saveMutation = useSaveEmployees(storeId);
  const uploadMutation = useUploadEmployeeIllustration(storeId);
  const [employees, setEmployees] = useState<EmployeeDraft[]>(() => data.items.map(employeeDraft));
  const [source, setSource] = useState<Employees | null>(data);
  const [isDirty, setIsDirty] = useState(false);
  const [isShowingInactive, setIsShowingInactive] = useState(false);
  /** Employees shown even when inactive: those active when read, so a deactivation stays visible. */
  const [activeAtRead, setActiveAtRead] = useState<Set<string>>(
    () => new Set(data.items.filter((item) => item.active).map((item) => item.id)),
  );
  const [missingRoleKeys, setMissingRoleKeys] = useState<Set<string>>(new Set());
  const [authEmployee, setAuthEmployee] = useState<AuthEmployee | null>(null);
  const isEditable = data.editable && !isReadOnly;
  useUnsavedChangesPrompt(isDirty);

  // A fresh read replaces the draft unless the user is editing it.
  if (data !== source) {
    setSource(data);
    if (!isDirty) {
      setEmployees(data.items.map(employeeDraft));
      setActiveAtRead(new Set(data.items.filter((item) => item.active).map((item) => item.id)));
      setMissingRoleKeys(new Set());
    }
  }

  const activeRoles = data.roles.filter((role) => role.active);
  const roleOptions = activeRoles.map((role) => ({ value: role.id, label: role.name }));
  const shown = employees.filter(
    (employee) =>
      isShowingInactive ||
      employee.active ||
      employee.id === undefined ||
      activeAtRead.has(employee.key),
  );

  function updateEmployee(key: string, change: Partial<EmployeeDraft>) {
    setEmployees((current) =>
      current.map((employee) => (employee.key === key ? { ...employee, ...change } : employee)),
    );
    if ('role_id' in change || 'active' in change) {
      setMissingRoleKeys((current) => {
        if (!current.has(key)) return current;
        const next = new Set(current);
        next.delete(key);
        return next;
      });
    }
    setIsDirty(true);
  }

  /** A saved change outside the save (illustration, secret) moves the employee's version on. */
  function applySaved(saved: Employee) {
    setEmployees((current) =>
      current.map((employee) =>
        employee.id === saved.id
          ? {
              ...employee,
              version: saved.version,
              illustration_url: saved.illustration_url,
              using_password: saved.using_password,
              has_secret: saved.has_secret,
            }
          : employee,
      ),
    );
  }

  function handleAdd() {
    localKeySequence += 1;
    setEmployees((current) => [...current, newEmployeeDraft(`new-${localKeySequence}`)]);
    setIsDirty(true);
  }

  async function handleUpload(
    employee: EmployeeDraft,
    file: File,
    onProgress: (percent: number) => void,
  ) {
    if (!employee.id) return;
    const saved = await uploadMutation.mutateAsync({ employeeId: employee.id, file, onProgress });
    applySaved(saved);
  }

  async function handleSave() {
    const missing = employeesMissingRole(employees, activeRoles);
    if (missing.length > 0) {
      setMissingRoleKeys(new Set(missing.map((employee) => employee.key)));
      notifyError(t('errors.employee/select-role'));
      return;
    }
    if (hasBlankEmployeeName(employees)) {
      notifyError(t('errors.employee/invalid-name'));
      return;
    }
    try {
      await saveMutation.mutateAsync(employeesSaveBody(employees));
      setIsDirty(false);
      // Take the saved employees (with their ids and versions) from the fresh read.
      setSource(null);
      notifySuccess(t('common.savedSuccessfully'));
    } catch (error) {
      notifyError(
        isApiError(error, 'conflict/stale-version')
          ? t('errors.conflict/stale-version')
          : errorMessage(t, error),
        { autoClose: saveErrorDurationMs },
      );
    }
  }

  return (
    <Stack gap="md" data-testid="employees-tab">
      <Group justify="space-between">
        <Switch
          label={t('employees.showInactive')}
          checked={isShowingInactive}
          onChange={(event) => setIsShowingInactive(event.currentTarget.checked)}
          data-testid="employees-show-inactive"
        />
        {isEditable ? (
          <LoadingButton
            onClick={handleSave}
            loading={saveMutation.isPending}
            data-testid="employees-save"
          >
            {t('common.save')}
          </LoadingButton>
        ) : (
          <Text size="sm" c="dimmed" data-testid="employees-read-only">
            {t('employees.readOnly')}
          </Text>
        )}
      </Group>
      {shown.length === 0 && !isEditable ? (
        <Text c="dimmed" size="sm" data-testid="employees-empty">
          {t('employees.empty')}
        </Text>
      ) : null}
      <SimpleGrid cols={{ base: 1, xs: 2, md: 3, lg: 4 }} spacing="md">
        {shown.map((employee) => (
          <EmployeeCard
            key={employee.key}
            employee={employee}
            roleOptions={roleOptions}
            isEditable={isEditable}
            isRoleMissing={missingRoleKeys.has(employee.key)}
            onChange={(change) => updateEmployee(employee.key, change)}
            onUpload={(file, onProgress) => handleUpload(employee, file, onProgress)}
            onAuthenticate={() => {
              if (employee.id) setAuthEmployee({ ...employee, id: employee.id });
            }}
          />
        ))}
        {isEditable ? (
          <Card withBorder radius="md" padding="md" style={{ borderStyle: 'dashed' }}>
            <Center h="100%" mih={200}>
              <Button
                variant="subtle"
                size="md"
                h="auto"
                py="xs"
                // A long label ("Mitarbeiter hinzufügen") wraps inside the card instead of being cut.
                styles={{
                  label: { whiteSpace: 'normal', textAlign: 'center', overflow: 'visible' },
                }}
                leftSection={<IconUserPlus size={20} />}
                onClick={handleAdd}
                data-testid="employee-add"
              >
                {t('employees.add')}
              </Button>
            </Center>
          </Card>
        ) : null}
      </SimpleGrid>
      <EmployeeAuthModal
        storeId={storeId}
        employee={authEmployee}
        onClose={() => setAuthEmployee(null)}
        onSaved={applySaved}
      />
    </Stack>
  );
}
