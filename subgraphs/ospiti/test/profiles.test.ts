import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { drive, GUEST_FIELDS, type Guest } from './support/drive.js';
import { hostOspiti, newTenant, type Hosted } from './support/hosted.js';

describe('ospiti: search, profile edits, duplicates and merge (in-process)', () => {
  let h: Hosted;
  beforeAll(async () => {
    h = await hostOspiti();
  });
  afterAll(async () => {
    await h?.close();
  });
  const { book, linkedGuest, setState, guest, guestOfBooking } = drive(() => h);

  const search = async (token: string, args: { q?: string; tag?: string; limite?: number }) =>
    (
      await h.run<{ ospiti: Guest[] }>(
        'ospiti',
        `query($q: String, $tag: String, $l: Int) { ospiti(q: $q, tag: $tag, limite: $l) { ${GUEST_FIELDS} } }`,
        { q: args.q ?? null, tag: args.tag ?? null, l: args.limite ?? null },
        token,
      )
    ).ospiti.map((g) => g.nome);

  const patch = (token: string, id: string, input: Record<string, unknown>) =>
    h
      .run<{ updateOspite: Guest }>(
        'ospiti',
        `mutation($id: ID!, $i: OspitePatch!) { updateOspite(id: $id, input: $i) { ${GUEST_FIELDS} } }`,
        { id, i: input },
        token,
      )
      .then((r) => r.updateOspite);

  it('finds guests by the start of name words (any case, any accents), the last digits of the phone, the email, and a tag', async () => {
    const t = await newTenant();
    const names: Array<[string, string]> = [
      ['Niccolò Rossi', '+39 333 100 2000'],
      ['Anna Rossini', '+39 333 100 3000'],
      ['Marco Bianchi', '+44 20 7946 0958'],
    ];
    const ids: string[] = [];
    for (const [customerName, customerPhone] of names)
      ids.push((await linkedGuest(t.staff, await book(t.staff, { customerName, customerPhone }))).id);
    expect(await search(t.staff, { q: 'ross' })).toEqual(['Anna Rossini', 'Niccolò Rossi']);
    expect(await search(t.staff, { q: 'NICCOLO' })).toEqual(['Niccolò Rossi']);
    expect(await search(t.staff, { q: 'ross nic' })).toEqual(['Niccolò Rossi']);
    expect(await search(t.staff, { q: '3000' })).toEqual(['Anna Rossini']);
    expect(await search(t.staff, { q: '333 1002000' })).toEqual(['Niccolò Rossi']);
    expect(await search(t.staff, { q: '+442079460958' })).toEqual(['Marco Bianchi']);
    expect(await search(t.staff, { q: 'xyz' })).toEqual([]);
    expect(await search(t.staff, { limite: 2 })).toEqual(['Anna Rossini', 'Marco Bianchi']);
    await patch(t.staff, ids[2]!, { tags: ['VIP'], email: ' Marco@Example.COM ' });
    expect(await search(t.staff, { tag: 'VIP' })).toEqual(['Marco Bianchi']);
    expect(await search(t.staff, { q: 'marco@example.com' })).toEqual(['Marco Bianchi']);
    expect(await search(t.staff, { q: 'ross', tag: 'VIP' })).toEqual([]);
    await expect(search(t.staff, { limite: 0 })).rejects.toMatchObject({ code: 'VALIDATION_FAILED' });
  });

  it('edits a profile (English wins over Italian, null clears), naming every invalid field at once', async () => {
    const t = await newTenant();
    const { id } = await linkedGuest(
      t.staff,
      await book(t.staff, { customerName: 'Eva', customerPhone: '3479998888' }),
    );
    const edited = await patch(t.staff, id, {
      nome: 'Eva I.',
      name: 'Eva Verdi',
      allergie: ['arachidi', 'arachidi', ' glutine '],
      note: 'tavolo vicino alla finestra',
      marketingConsent: true,
      lingua: 'en',
    });
    expect(edited).toMatchObject({
      nome: 'Eva Verdi',
      allergie: ['arachidi', 'glutine'],
      note: 'tavolo vicino alla finestra',
      consensoMarketing: true,
      lingua: 'en',
      telefono: '+393479998888',
    });
    expect(await patch(t.staff, id, { notes: null })).toMatchObject({ note: null, nome: 'Eva Verdi' });
    const error = await patch(t.staff, id, {
      telefono: '12',
      email: 'not-an-email',
      lingua: 'italiano',
      tags: [''],
    }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'VALIDATION_FAILED' });
    expect(
      (error as { details: { fields: Array<{ field: string }> } }).details.fields.map((f) => f.field),
    ).toEqual(['telefono', 'email', 'lingua', 'tag']);
  });

  it('pairs guests that share two of name, phone and email, never the name alone, and merges one into the other', async () => {
    const t = await newTenant();
    const events = h.collect(`tenant.${t.tenantId}.restaurant.guests.>`);
    const first = await book(t.staff, { customerName: 'Paolo Neri', customerPhone: '+39 320 555 0001' });
    const a = await linkedGuest(t.staff, first);
    const second = await book(t.staff, { customerName: 'paolo  NERI', customerPhone: '+39 320 555 0002' });
    const b = await linkedGuest(t.staff, second);
    await book(t.staff, { customerName: 'Paolo Neri', customerPhone: '+39 320 555 0003' });
    const pairs = async () =>
      (
        await h.run<{
          ospitiDuplicati: Array<{ a: { id: string }; b: { id: string }; campi: string[]; fields: string[] }>;
        }>('ospiti', 'query { ospitiDuplicati { a { id } b { id } campi fields } }', {}, t.staff)
      ).ospitiDuplicati;
    expect(await pairs()).toEqual([]);
    // Staff write the same email on both profiles: now they share name and email.
    await patch(t.staff, b.id, { email: 'paolo@example.com', tags: ['tavolo 7'] });
    expect(await pairs()).toEqual([]);
    await patch(t.staff, a.id, { email: 'PAOLO@example.com' });
    expect(await pairs()).toEqual([
      { a: { id: a.id }, b: { id: b.id }, campi: ['nome', 'email'], fields: ['nome', 'email'] },
    ]);

    await setState(t.staff, second, 'confermata');
    await setState(t.staff, second, 'completata');
    await vi.waitFor(async () => expect((await guest(t.staff, b.id))!.visite).toBe(1));
    const merged = await h.run<{ unisciOspiti: Guest }>(
      'ospiti',
      `mutation($id: ID!, $o: ID!) { unisciOspiti(id: $id, ospiteId: $o) { ${GUEST_FIELDS} } }`,
      { id: a.id, o: b.id },
      t.staff,
    );
    expect(merged.unisciOspiti).toMatchObject({
      id: a.id,
      nome: 'Paolo Neri',
      visite: 1,
      coperti: 2,
      tag: ['tavolo 7'],
    });
    expect(await guest(t.staff, b.id)).toBeNull();
    expect((await guestOfBooking(t.staff, second))!.id).toBe(a.id);
    expect(await pairs()).toEqual([]);
    // b's phone (and the email b held) now lead to a.
    const third = await book(t.staff, { customerName: 'P. N.', customerPhone: '+39 320 555 0002' });
    expect((await linkedGuest(t.staff, third)).id).toBe(a.id);
    // A later event of b's booking counts on a, once.
    await setState(t.staff, third, 'confermata');
    await setState(t.staff, third, 'completata');
    await vi.waitFor(async () => expect((await guest(t.staff, a.id))!.visite).toBe(2));
    await expect(
      h.run(
        'ospiti',
        'mutation($id: ID!) { unisciOspiti(id: $id, ospiteId: $id) { id } }',
        { id: a.id },
        t.staff,
      ),
    ).rejects.toMatchObject({ code: 'VALIDATION_FAILED' });
    await expect(
      h.run(
        'ospiti',
        'mutation($id: ID!, $o: ID!) { unisciOspiti(id: $id, ospiteId: $o) { id } }',
        { id: a.id, o: b.id },
        t.staff,
      ),
    ).rejects.toMatchObject({ code: 'NOT_FOUND' });
    // What an integration saw: each guest made, each change with the fields it touched, the merge naming b.
    const seen = () =>
      events.received.map((e) => {
        const data = e.data as { campi: string[]; unitoDa: string | null };
        return `${e.type} ${e.subject} ${data.campi.join(',')}${data.unitoDa ? ` from ${data.unitoDa}` : ''}`;
      });
    await vi.waitFor(() =>
      expect(seen()).toEqual(
        expect.arrayContaining([
          `guests.created ${a.id} nome,telefono,lingua`,
          `guests.created ${b.id} nome,telefono,lingua`,
          `guests.updated ${b.id} email,tag`,
          `guests.updated ${a.id} email`,
          `guests.updated ${b.id} visite,coperti,primaVisita,ultimaVisita`,
          // The same email on both: the merge changed a's tags and counts.
          `guests.merged ${a.id} tag,visite,coperti,primaVisita,ultimaVisita from ${b.id}`,
          `guests.updated ${a.id} visite,coperti`,
        ]),
      ),
    );
    expect(seen().filter((line) => line.includes(b.id)).length).toBe(4);
    events.stop();
  });

  it('takes the tenant’s country for numbers without a prefix, which only an administrator sets', async () => {
    const t = await newTenant();
    const settings = (token: string, input: Record<string, unknown>) =>
      h.run<{ updateImpostazioniOspiti: { paese: string; country: string; retentionMonths: number | null } }>(
        'ospiti',
        'mutation($i: ImpostazioniOspitiInput!) { updateImpostazioniOspiti(input: $i) { paese country retentionMonths } }',
        { i: input },
        token,
      );
    await expect(settings(t.staff, { paese: 'FR' })).rejects.toMatchObject({ code: 'FORBIDDEN' });
    await expect(settings(t.admin, { paese: 'XX', retentionMonths: 0 })).rejects.toMatchObject({
      code: 'VALIDATION_FAILED',
      details: { fields: [{ field: 'retentionMonths' }, { field: 'paese' }] },
    });
    expect(
      (await settings(t.admin, { country: 'fr', retentionMonths: 24 })).updateImpostazioniOspiti,
    ).toEqual({
      paese: 'FR',
      country: 'FR',
      retentionMonths: 24,
    });
    const french = await linkedGuest(
      t.staff,
      await book(t.staff, { customerName: 'Jean', customerPhone: '06 12 34 56 78' }),
    );
    expect(french.telefono).toBe('+33612345678');
    expect(
      (
        await h.run<{ impostazioniOspiti: { paese: string } }>(
          'ospiti',
          '{ impostazioniOspiti { paese } }',
          {},
          t.staff,
        )
      ).impostazioniOspiti,
    ).toEqual({ paese: 'FR' });
  });
});
