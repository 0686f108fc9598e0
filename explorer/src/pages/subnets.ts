// The P-Chain's subnets and L1s: their chains, owners, managers and validators with their balances.
import { rpc } from '../api.js';
import { chains, P_CHAIN_ID, PRIMARY_SUBNET } from '../chains.js';
import { addressLink, badge, type Child, errorBox, facts, fill, h, ident, link, section, table, time, txLink } from '../dom.js';
import { int, navax, short } from '../format.js';
import type { PageCtx } from '../page.js';
import { chainBadge } from '../ui.js';

export function validatorsTable(validators: any[], l1: boolean): HTMLElement {
  if (l1)
    return table(
      ['Node', 'Validation ID', 'Weight', 'Balance', 'Since'],
      validators.map((v) => [
        ident(v.nodeID),
        v.validationID ? ident(v.validationID) : '—',
        int(v.weight),
        v.balance !== undefined ? navax(v.balance) : '—',
        time(Number(v.startTime)),
      ]),
      'No validators.',
    );
  return table(
    ['Node', 'Tx', 'Weight / stake', 'Start', 'End', 'Reward owner'],
    validators.map((v) => [
      ident(v.nodeID),
      v.txID ? txLink(v.txID) : '—',
      v.stakeAmount !== undefined ? navax(v.stakeAmount) : navax(v.weight),
      time(Number(v.startTime)),
      time(Number(v.endTime)),
      v.validationRewardOwner?.addresses?.[0] ? addressLink(v.validationRewardOwner.addresses[0]) : '—',
    ]),
    'No validators.',
  );
}

/** Whether platform.getSubnet's answer is an L1's: its validators managed by a chain, not the P-Chain. */
export const isL1 = (subnet: { managerChainID?: string }): boolean => !!subnet.managerChainID && subnet.managerChainID !== P_CHAIN_ID;

async function subnetCard(id: string, withLink: boolean): Promise<HTMLElement> {
  const [subnet, { validators }, all] = await Promise.all([
    rpc('/ext/bc/P', 'platform.getSubnet', { subnetID: id }),
    rpc('/ext/bc/P', 'platform.getCurrentValidators', { subnetID: id }),
    chains(),
  ]);
  const l1 = isL1(subnet);
  const its = all.filter((c) => c.subnetID === id);
  const manager = all.find((c) => c.id === subnet.managerChainID);
  const title: Child = [
    withLink ? link(`/subnet/${id}`, its.length ? its.map((c) => c.name).join(', ') : short(id)) : its.length ? its.map((c) => c.name).join(', ') : 'Subnet',
    ' ',
    l1 ? badge('L1', 'ok') : subnet.isPermissioned ? badge('permissioned subnet') : badge('subnet'),
  ];
  return section(
    title,
    facts([
      ['Subnet ID', ident(id, undefined, true)],
      ['Chains', its.length ? h('span', { class: 'chips' }, its.map(chainBadge)) : h('span', { class: 'muted' }, 'none running here')],
      l1 && ['Manager', [manager ? chainBadge(manager) : ident(subnet.managerChainID), ' · ', addressLink(subnet.managerAddress)]],
      l1 && ['Conversion ID', ident(subnet.conversionID)],
      !l1 && subnet.controlKeys?.length > 0 && ['Owners', [subnet.controlKeys.map((k: string) => addressLink(k)), ` (threshold ${subnet.threshold})`]],
      ['Validators', String(validators.length)],
    ]),
    validatorsTable(validators, l1),
  );
}

export async function subnetsPage(ctx: PageCtx): Promise<void> {
  ctx.title('Subnets and L1s');
  const list = h('div', null, h('p', { class: 'muted' }, 'Loading…'));
  fill(ctx.view, h('h1', null, 'Subnets and L1s'), list);
  try {
    const { subnets } = await rpc('/ext/bc/P', 'platform.getSubnets', {});
    const ids = (subnets as Array<{ id: string }>).map((s) => s.id).filter((id) => id !== PRIMARY_SUBNET);
    const cards = await Promise.all(ids.map((id) => subnetCard(id, true).catch((err) => errorBox(err))));
    fill(list, cards.length ? cards : h('p', { class: 'muted' }, 'No subnets yet: create one with a CreateSubnetTx.'));
  } catch (err) {
    fill(list, errorBox(err));
  }
}

export async function subnetPage(ctx: PageCtx): Promise<void> {
  const id = ctx.params[0]!;
  ctx.title(`Subnet ${id}`);
  if (id === PRIMARY_SUBNET) {
    ctx.redirect('/chain/P');
    return;
  }
  try {
    fill(ctx.view, h('h1', null, 'Subnet'), await subnetCard(id, false));
  } catch (err) {
    fill(ctx.view, errorBox(err));
  }
}
