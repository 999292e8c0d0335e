import { Badge, Card, Group, SimpleGrid, Table, Text, Title, Tooltip } from '@mantine/core';
import { allergens } from '@mise/shared/catalogue/constants';
import type { AllergenTable as AllergenTableData } from '@mise/shared/catalogue/schemas';
import { IconCheck } from '@tabler/icons-react';
import { Fragment } from 'react';
import { useTranslation } from 'react-i18next';

type AllergenGroups = AllergenTableData['groups'];

/** The groups with only the elements that carry at least one allergen (spec 001 §2.8). */
export function groupsWithAllergens(groups: AllergenGroups): AllergenGroups {
  return groups
    .map((group) => ({
      ...group,
      elements: group.elements.filter((element) => element.allergens.length > 0),
    }))
    .filter((group) => group.elements.length > 0);
}

type AllergenTableProps = { groups: AllergenGroups };

/**
 * Elements against the 14 allergen columns, grouped by element type: a group row per type,
 * a check mark where the element carries the allergen.
 */
export function AllergenTable({ groups }: AllergenTableProps) {
  const { t } = useTranslation();
  return (
    <Table.ScrollContainer minWidth={720}>
      <Table
        withTableBorder
        withColumnBorders
        striped
        highlightOnHover
        stickyHeader
        data-testid="allergen-table"
      >
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{t('allergens.element')}</Table.Th>
            {allergens.map((allergen) => (
              <Table.Th
                key={allergen.key}
                ta="center"
                w={44}
                data-testid={`allergen-column-${allergen.letter}`}
              >
                <Tooltip label={t(`allergenNames.${allergen.key}`)} withArrow>
                  <abbr
                    title={t(`allergenNames.${allergen.key}`)}
                    style={{ textDecoration: 'none', cursor: 'help' }}
                  >
                    {allergen.letter}
                  </abbr>
                </Tooltip>
              </Table.Th>
            ))}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {groups.map((group) => (
            <Fragment key={group.type_id ?? 'no-type'}>
              <Table.Tr data-testid="allergen-group">
                <Table.Th
                  colSpan={allergens.length + 1}
                  scope="colgroup"
                  bg="var(--mantine-color-default-hover)"
                >
                  {group.type_name ?? t('allergens.noType')}
                </Table.Th>
              </Table.Tr>
              {group.elements.map((element) => {
                const carried = new Set<string>(element.allergens);
                return (
                  <Table.Tr key={element.key} data-testid="allergen-row">
                    <Table.Td data-testid="allergen-row-name">{element.name}</Table.Td>
                    {allergens.map((allergen) => {
                      const isCarried = carried.has(allergen.key);
                      return (
                        <Table.Td
                          key={allergen.key}
                          ta="center"
                          data-testid={`allergen-cell-${allergen.letter}`}
                          data-carried={isCarried ? 'true' : 'false'}
                        >
                          {isCarried ? (
                            <IconCheck
                              size={18}
                              color="var(--mantine-color-red-7)"
                              role="img"
                              aria-label={t('allergens.carries', {
                                allergen: t(`allergenNames.${allergen.key}`),
                              })}
                            />
                          ) : null}
                        </Table.Td>
                      );
                    })}
                  </Table.Tr>
                );
              })}
            </Fragment>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

/** The letters and the allergen each stands for. */
export function AllergenLegend() {
  const { t } = useTranslation();
  return (
    <Card withBorder radius="md" data-testid="allergen-legend">
      <Title order={5} mb="sm">
        {t('allergens.legend')}
      </Title>
      <SimpleGrid cols={{ base: 2, sm: 4, lg: 7 }} spacing="xs">
        {allergens.map((allergen) => (
          <Group key={allergen.key} gap="xs" wrap="nowrap">
            <Badge variant="outline" color="red" radius="sm" w={28} px={0}>
              {allergen.letter}
            </Badge>
            <Text size="sm">{t(`allergenNames.${allergen.key}`)}</Text>
          </Group>
        ))}
      </SimpleGrid>
    </Card>
  );
}
