import { Checkbox, SimpleGrid, Stack, Title } from '@mantine/core';
import {
  type ExtensionKey,
  extensionKeys,
  type ModuleKey,
  moduleKeys,
} from '@mise/shared/organisation/constants';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { FormDialog } from './form-dialog';

export type HiddenFeatures = { hidden_modules: ModuleKey[]; hidden_extensions: ExtensionKey[] };

/**
 * The stored lists hold what is hidden (spec 001 §3.13): the complement of
 * what the user checks.
 */
export function hiddenFromVisible(visibleModules: string[], visibleExtensions: string[]) {
  return {
    hidden_modules: moduleKeys.filter((key) => !visibleModules.includes(key)),
    hidden_extensions: extensionKeys.filter((key) => !visibleExtensions.includes(key)),
  } satisfies HiddenFeatures;
}

type ModulesDialogProps = {
  opened: boolean;
  onClose: () => void;
  hidden: HiddenFeatures;
  /** Receives the hidden lists of the new selection. */
  onConfirm: (hidden: HiddenFeatures) => void;
  isDisabled?: boolean;
  isLoading?: boolean;
};

/** Modules and extensions selection (spec 000 §2, 001 §3.13): a checklist of the visible ones. */
export function ModulesDialog({
  opened,
  onClose,
  hidden,
  onConfirm,
  isDisabled = false,
  isLoading = false,
}: ModulesDialogProps) {
  const { t } = useTranslation();
  const [visibleModules, setVisibleModules] = useState<string[]>([]);
  const [visibleExtensions, setVisibleExtensions] = useState<string[]>([]);
  const [isInitialised, setIsInitialised] = useState(false);

  if (opened && !isInitialised) {
    setVisibleModules(moduleKeys.filter((key) => !hidden.hidden_modules.includes(key)));
    setVisibleExtensions(extensionKeys.filter((key) => !hidden.hidden_extensions.includes(key)));
    setIsInitialised(true);
  }
  if (!opened && isInitialised) setIsInitialised(false);

  return (
    <FormDialog
      opened={opened}
      onClose={onClose}
      title={t('modules.title')}
      primaryLabel={t('common.confirm')}
      onPrimary={() => onConfirm(hiddenFromVisible(visibleModules, visibleExtensions))}
      isPrimaryDisabled={isDisabled}
      isPrimaryLoading={isLoading}
      primaryTestId="modules-confirm"
      size="lg"
      testId="modules-dialog"
    >
      <Stack gap="md">
        <Checkbox.Group value={visibleModules} onChange={setVisibleModules}>
          <Title order={5} mb="xs">
            {t('modules.modules')}
          </Title>
          <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="xs">
            {moduleKeys.map((key) => (
              <Checkbox
                key={key}
                value={key}
                label={t(`modules.module.${key}`)}
                disabled={isDisabled}
                data-testid={`module-${key}`}
              />
            ))}
          </SimpleGrid>
        </Checkbox.Group>
        <Checkbox.Group value={visibleExtensions} onChange={setVisibleExtensions}>
          <Title order={5} mb="xs">
            {t('modules.extensions')}
          </Title>
          <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="xs">
            {extensionKeys.map((key) => (
              <Checkbox
                key={key}
                value={key}
                label={t(`modules.extension.${key}`)}
                disabled={isDisabled}
                data-testid={`extension-${key}`}
              />
            ))}
          </SimpleGrid>
        </Checkbox.Group>
      </Stack>
    </FormDialog>
  );
}
