// Runs a P-Chain tx against a ledger draft (txs/executor.StandardTx): each type's checks and state
// change, every failure wrapped as `standard tx <ID> failed execution: …`.
import { encodeCB58 } from '../../../encoding/cb58.js';
import type { SignedTx } from '../types.js';
import { importTx, exportTx } from './atomic.js';
import { fail, VerifyError, verifyBaseTx, verifyMemo, verifySpend } from './base.js';
import type { TxEnv, TxResult } from './env.js';
import { convertSubnetToL1, disableL1Validator, increaseL1ValidatorBalance, registerL1Validator, setL1ValidatorWeight } from './l1.js';
import { addPermissionlessDelegator, addPermissionlessValidator } from './staking.js';
import { addSubnetValidator, createChain, createSubnet, removeSubnetValidator, transfer, transferSubnetOwnership } from './subnets.js';

export type { CreatedChain, TxEnv, TxResult } from './env.js';
export { VerifyError } from './base.js';

function run(tx: SignedTx, env: TxEnv): TxResult {
  const u = tx.unsigned;
  switch (u.type) {
    case 34:
      verifyBaseTx(u.base, env);
      verifyMemo(u.base);
      verifySpend(tx, u.base.inputs, u.base.outputs, tx.credentials, env);
      return transfer(tx, u.base);
    case 16:
      return createSubnet(tx, u, env);
    case 15:
      return createChain(tx, u, env);
    case 17:
      return importTx(tx, u, env);
    case 18:
      return exportTx(tx, u, env);
    case 13:
      return addSubnetValidator(tx, u, env);
    case 23:
      return removeSubnetValidator(tx, u, env);
    case 33:
      return transferSubnetOwnership(tx, u, env);
    case 25:
      return addPermissionlessValidator(tx, u, env);
    case 26:
      return addPermissionlessDelegator(tx, u, env);
    case 35:
      return convertSubnetToL1(tx, u, env);
    case 36:
      return registerL1Validator(tx, u, env);
    case 37:
      return setL1ValidatorWeight(tx, u, env);
    case 38:
      return increaseL1ValidatorBalance(tx, u, env);
    case 39:
      return disableL1Validator(tx, u, env);
    case 20:
      return fail('wrong tx type');
  }
}

/** executor.StandardTx. */
export function executeTx(tx: SignedTx, env: TxEnv): TxResult {
  try {
    return run(tx, env);
  } catch (err) {
    if (err instanceof VerifyError) throw new VerifyError(`standard tx ${encodeCB58(tx.id)} failed execution: ${err.message}`);
    throw err;
  }
}
