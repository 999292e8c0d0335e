import {
  ActionIcon,
  Button,
  Card,
  Group,
  Select,
  SimpleGrid,
  Stack,
  Switch,
  Text,
  TextInput,
  Tooltip,
} from '@mantine/core';
import type { StoreDetail } from '@mise/shared/organisation/schemas';
import { IconAdjustments, IconRestore, IconUsers } from '@tabler/icons-react';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { countryName, europeanCountryOptions } from '../../../shared/format/country';
import { formatDateTime } from '../../../shared/format/date';
import { openConfirmDialog } from '../../../shared/ui/confirm-dialog';
import { ImageUpload } from '../../../shared/ui/image-upload';
import { type HiddenFeatures, ModulesDialog } from '../../../shared/ui/modules-dialog';
import { NumericInput } from '../../../shared/ui/numeric-input';
import { useUploadStoreIllustration } from '../api/upload-store-illustration';
import { OwnersDialog } from './owners-dialog';
import {
  type SetStoreValue,
  type StoreFormValues,
  type StorePermissions,
  timezoneOptions,
  zoneOfCountry,
} from './store-form';
import { StoreRecordsSeal } from './store-records-seal';

type StoreGeneralTabProps = {
  store: StoreDetail;
  values: StoreFormValues;
  setValue: SetStoreValue;
  permissions: StorePermissions;
  /** The licence and manager-owned toggles only show without a custom store id. */
  isCustomStore: boolean;
  isCustomerViewer: boolean;
};

const weekDays = [0, 1, 2, 3, 4, 5, 6] as const;

/** How many licence events the General tab lists before "and N more". */
const licenceHistoryLimit = 10;

/** Store General tab (spec 000 §2, §5). */
export function StoreGeneralTab({
  store,
  values,
  setValue,
  permissions,
  isCustomStore,
  isCustomerViewer,
}: StoreGeneralTabProps) {
  const { t, i18n } = useTranslation();
  const [isOwnersOpen, setIsOwnersOpen] = useState(false);
  const [isModulesOpen, setIsModulesOpen] = useState(false);
  const uploadMutation = useUploadStoreIllustration(store.id);
  // Tablet mode, or a manager on a store that is not manager-owned (spec 000 §2).
  const isLocked = permissions.isTabletMode || store.is_read_only;

  function handleLicence(isActivated: boolean) {
    openConfirmDialog({
      title: t('licence.title'),
      message: isActivated ? t('licence.onWarning') : t('licence.offWarning'),
      isDanger: !isActivated,
      onConfirm: () => setValue('mise_licence', isActivated),
    });
  }

  const zones = useMemo(() => timezoneOptions(store.timezone_name), [store.timezone_name]);
  const countryOptions = useMemo(() => {
    const options = europeanCountryOptions(i18n.language);
    // A store created with a country outside the list keeps it on screen.
    return options.some((option) => option.value === store.country)
      ? options
      : [{ value: store.country, label: countryName(store.country, i18n.language) }, ...options];
  }, [i18n.language, store.country]);

  /** Picking a country also picks its zone, as when the store was created (spec 000 §9). */
  function handleCountry(country: string | null) {
    if (!country) return;
    setValue('country', country);
    const zone = zoneOfCountry(country);
    if (zone) setValue('timezone_name', zone);
  }

  function handleModules(hidden: HiddenFeatures) {
    setValue('hidden_modules', hidden.hidden_modules);
    setValue('hidden_extensions', hidden.hidden_extensions);
    setIsModulesOpen(false);
  }

  const licenceHistory = [...store.licence_activation_history].sort(
    (first, second) => (Date.parse(second.timestamp) || 0) - (Date.parse(first.timestamp) || 0),
  );
  const shownLicenceHistory = licenceHistory.slice(0, licenceHistoryLimit);
  const hiddenLicenceEventCount = licenceHistory.length - shownLicenceHistory.length;

  const weekOptions = weekDays.map((day) => ({
    value: String(day),
    label: t(`weekDays.${day}`),
  }));

  return (
    <Stack gap="lg">
      <Card withBorder radius="md">
        <Group align="flex-start" gap="xl" wrap="wrap">
          <ImageUpload
            imageUrl={store.illustration_url}
            name={store.name}
            label={t('store.changeIllustration')}
            onUpload={(file, onProgress) => uploadMutation.mutateAsync({ file, onProgress })}
            isDisabled={isLocked}
            isSquare
            testId="store-illustration"
          />
          <Stack gap="sm" style={{ flex: 1, minWidth: 260 }}>
            <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
              <TextInput
                label={t('fields.name')}
                value={values.name}
                onChange={(event) => setValue('name', event.currentTarget.value)}
                disabled={isLocked}
                data-testid="store-name"
              />
              <TextInput
                label={t('fields.address')}
                value={values.address}
                onChange={(event) => setValue('address', event.currentTarget.value)}
                disabled={isLocked}
                data-testid="store-address"
              />
              <TextInput
                label={t('fields.postalCode')}
                value={values.postal_code}
                onChange={(event) => setValue('postal_code', event.currentTarget.value)}
                disabled={isLocked}
                data-testid="store-postal-code"
              />
              <TextInput
                label={t('fields.city')}
                value={values.city}
                onChange={(event) => setValue('city', event.currentTarget.value)}
                disabled={isLocked}
                data-testid="store-city"
              />
              <Select
                label={t('fields.country')}
                data={countryOptions}
                value={values.country}
                onChange={handleCountry}
                allowDeselect={false}
                searchable
                nothingFoundMessage={t('common.nothingFound')}
                disabled={isLocked}
                data-testid="store-country"
              />
              <Select
                label={t('fields.timezone')}
                data={zones}
                value={values.timezone_name}
                onChange={(zone) => {
                  if (zone) setValue('timezone_name', zone);
                }}
                allowDeselect={false}
                searchable
                limit={100}
                nothingFoundMessage={t('common.nothingFound')}
                disabled={isLocked}
                data-testid="store-timezone"
              />
              <Select
                label={t('store.weekStart')}
                data={weekOptions}
                value={String(values.week_start)}
                onChange={(value) => setValue('week_start', Number(value ?? 0))}
                allowDeselect={false}
                disabled={isLocked}
                data-testid="store-week-start"
              />
              {permissions.isAdmin ? (
                <Group align="flex-end" gap="xs" wrap="nowrap">
                  <NumericInput
                    label={t('licence.priceOverride')}
                    value={values.licence_price}
                    onChange={(value) => setValue('licence_price', value)}
                    placeholder={
                      store.effective_licence_price === null
                        ? t('licence.inherited')
                        : t('licence.inheritedPrice', { price: store.effective_licence_price })
                    }
                    min={0}
                    decimalScale={2}
                    suffix=" €"
                    disabled={isLocked}
                    style={{ flex: 1 }}
                    data-testid="store-licence-price"
                  />
                  <Tooltip label={t('licence.reset')}>
                    <ActionIcon
                      variant="default"
                      size="lg"
                      onClick={() => setValue('licence_price', null)}
                      disabled={isLocked || values.licence_price === null}
                      aria-label={t('licence.reset')}
                      data-testid="store-licence-price-reset"
                    >
                      <IconRestore size={16} />
                    </ActionIcon>
                  </Tooltip>
                </Group>
              ) : null}
            </SimpleGrid>
          </Stack>
        </Group>
      </Card>
      <Card withBorder radius="md">
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
          <Switch
            label={t('common.active')}
            checked={values.active}
            onChange={(event) => setValue('active', event.currentTarget.checked)}
            disabled={isLocked}
            data-testid="store-active"
          />
          {isCustomStore ? null : (
            <Switch
              label={t('licence.toggle')}
              checked={values.mise_licence}
              onChange={(event) => handleLicence(event.currentTarget.checked)}
              disabled={isLocked || !permissions.canManageLicence}
              data-testid="licence-toggle"
            />
          )}
          {isCustomStore ? null : (
            <Switch
              label={t('store.managerOwned')}
              checked={values.manager_owned}
              onChange={(event) => setValue('manager_owned', event.currentTarget.checked)}
              disabled={isLocked || !permissions.canManageLicence}
              data-testid="store-manager-owned"
            />
          )}
          {permissions.isAdmin ? (
            <Switch
              label={t('store.demonstration')}
              checked={values.demonstration_store}
              onChange={(event) => setValue('demonstration_store', event.currentTarget.checked)}
              disabled={isLocked}
              data-testid="store-demonstration"
            />
          ) : null}
        </SimpleGrid>
        {isCustomStore || licenceHistory.length === 0 ? null : (
          <Stack gap={2} mt="sm" data-testid="licence-history">
            <Text size="sm" fw={500}>
              {t('licence.history')}
            </Text>
            {shownLicenceHistory.map((event) => (
              <Text
                key={`${event.timestamp}-${event.activated}`}
                size="xs"
                c="dimmed"
                data-testid="licence-history-event"
              >
                {`${formatDateTime(event.timestamp)} · ${
                  event.activated ? t('licence.historyActivated') : t('licence.historyDeactivated')
                }`}
              </Text>
            ))}
            {hiddenLicenceEventCount > 0 ? (
              <Text size="xs" c="dimmed" data-testid="licence-history-more">
                {t('licence.historyMore', { count: hiddenLicenceEventCount })}
              </Text>
            ) : null}
          </Stack>
        )}
      </Card>
      <Group>
        <Button
          variant="light"
          leftSection={<IconUsers size={16} />}
          onClick={() => setIsOwnersOpen(true)}
          data-testid="store-owners"
        >
          {t('owners.button', { count: store.owners.length })}
        </Button>
        <Button
          variant="light"
          leftSection={<IconAdjustments size={16} />}
          onClick={() => setIsModulesOpen(true)}
          data-testid="store-modules"
        >
          {t('modules.open')}
        </Button>
        <Button
          component={Link}
          to={`/allergens?store=${store.id}`}
          variant="default"
          data-testid="store-allergens"
        >
          {t('areas.allergens')}
        </Button>
      </Group>
      <Text size="xs" c="dimmed">
        {t('store.deviceCount', { count: store.device_count })}
      </Text>
      <StoreRecordsSeal storeId={store.id} />
      <OwnersDialog
        opened={isOwnersOpen}
        onClose={() => setIsOwnersOpen(false)}
        store={store}
        areLinksShown={!isCustomerViewer}
        isDisabled={isLocked || !permissions.canManageOwners}
      />
      <ModulesDialog
        opened={isModulesOpen}
        onClose={() => setIsModulesOpen(false)}
        hidden={values}
        onConfirm={handleModules}
        isDisabled={isLocked}
      />
    </Stack>
  );
}
