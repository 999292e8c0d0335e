import { Avatar, Badge, Group, Paper, Stack, Text, Tooltip } from '@mantine/core';
import type { AllergenKey } from '@mise/shared/catalogue/constants';
import { allergens } from '@mise/shared/catalogue/constants';
import type { ElementListItem } from '@mise/shared/catalogue/schemas';
import { IconTemperature } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { ElementListScope } from '../api/get-element-list';

/**
 * Where a row opens: the database element, the store's own row, or — for a database element
 * the store has not overridden yet — the store element screen on its origin.
 */
export function elementRowPath(scope: ElementListScope, item: ElementListItem): string {
  if (scope.level === 'database') return `/databaseElement?id=${encodeURIComponent(item.id ?? '')}`;
  if (item.id) return `/storeElement?id=${encodeURIComponent(item.id)}`;
  const query = new URLSearchParams({ store: scope.storeId, origin: item.origin_id ?? '' });
  return `/storeElement?${query.toString()}`;
}

/** At store level: the store's own element, its override of a database element, or inherited. */
export type ElementOrigin = 'own' | 'overridden' | 'inherited';

export function elementOrigin(item: ElementListItem): ElementOrigin {
  if (!item.is_remote) return 'inherited';
  return item.origin_id ? 'overridden' : 'own';
}

const originColors: Record<ElementOrigin, string> = {
  own: 'grape',
  overridden: 'orange',
  inherited: 'blue',
};

type ElementListRowProps = {
  item: ElementListItem;
  to: string;
  /** Store lists mark where each row comes from. */
  isStoreLevel: boolean;
};

/** One element of the list: picture, name, type, temperatures, allergen letters and badges. */
export function ElementListRow({ item, to, isStoreLevel }: ElementListRowProps) {
  const { t, i18n } = useTranslation();
  const numberFormat = new Intl.NumberFormat(i18n.language, { maximumFractionDigits: 1 });
  const degrees = (value: number) => `${numberFormat.format(value)} °C`;
  const origin = elementOrigin(item);
  const carried = new Set<AllergenKey>(item.allergens);
  const itemAllergens = allergens.filter((allergen) => carried.has(allergen.key));

  let temperatures: string | null = null;
  if (item.minimum_temperature !== null && item.maximum_temperature !== null)
    temperatures = t('elementList.temperatureRange', {
      minimum: degrees(item.minimum_temperature),
      maximum: degrees(item.maximum_temperature),
    });
  else if (item.minimum_temperature !== null)
    temperatures = t('elementList.temperatureMinimum', {
      minimum: degrees(item.minimum_temperature),
    });
  else if (item.maximum_temperature !== null)
    temperatures = t('elementList.temperatureMaximum', {
      maximum: degrees(item.maximum_temperature),
    });

  return (
    <Paper
      component={Link}
      to={to}
      withBorder
      radius="md"
      p="sm"
      aria-label={item.name}
      data-testid="element-row"
      data-key={item.key}
      style={{ color: 'inherit', textDecoration: 'none', opacity: item.active ? 1 : 0.7 }}
    >
      <Group wrap="nowrap" gap="md">
        <Avatar
          src={item.illustration_url}
          name={item.name}
          color="initials"
          radius="md"
          size="md"
          alt=""
        />
        <Stack gap={2} style={{ flex: 1, minWidth: 0 }}>
          <Group gap="xs" wrap="nowrap">
            <Text fw={600} truncate data-testid="element-row-name">
              {item.name}
            </Text>
            {item.active ? null : (
              <Badge size="xs" color="gray" variant="light" data-testid="element-row-inactive">
                {t('common.inactive')}
              </Badge>
            )}
            {isStoreLevel ? (
              <Badge
                size="xs"
                variant="light"
                color={originColors[origin]}
                data-testid="element-row-origin"
                data-origin={origin}
                // The name keeps the room first; the badge shortens before it.
                style={{ flexShrink: 4, minWidth: 24 }}
              >
                {t(`elementList.origin.${origin}`)}
              </Badge>
            ) : null}
          </Group>
          <Text size="sm" c="dimmed" truncate data-testid="element-row-type">
            {item.type_name ?? t('elementList.noType')}
          </Text>
        </Stack>
        {item.probe_id ? (
          <Tooltip
            label={
              item.probe_missing
                ? t('element.probe.missing')
                : t('elementList.probe', { probe: item.probe_id })
            }
          >
            <IconTemperature
              size={18}
              color={item.probe_missing ? 'var(--mantine-color-orange-filled)' : undefined}
              aria-label={
                item.probe_missing
                  ? t('element.probe.missing')
                  : t('elementList.probe', { probe: item.probe_id })
              }
              data-testid="element-row-probe"
              data-missing={item.probe_missing}
            />
          </Tooltip>
        ) : null}
        <Text
          size="sm"
          w={150}
          ta="right"
          visibleFrom="xs"
          style={{ whiteSpace: 'nowrap' }}
          data-testid="element-row-temperatures"
        >
          {temperatures}
        </Text>
        {/* On a phone the letters take only their room (a fixed 160 px left the name two letters). */}
        <Group
          gap={4}
          w={{ base: 'auto', sm: 160 }}
          maw={{ base: 64, sm: 160 }}
          justify="flex-end"
          wrap="wrap"
          data-testid="element-row-allergens"
        >
          {itemAllergens.map((allergen) => (
            <Tooltip key={allergen.key} label={t(`allergenNames.${allergen.key}`)}>
              <Badge size="sm" variant="outline" color="red" radius="sm" px={6}>
                {allergen.letter}
              </Badge>
            </Tooltip>
          ))}
        </Group>
      </Group>
    </Paper>
  );
}
