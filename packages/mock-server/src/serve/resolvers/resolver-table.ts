import type { Endpoints } from '@company-data/contract';
import { addAudienceMember } from './audience.js';
import { submitLead } from './lead.js';
import { DATA_RESOLVERS } from './record-reads.js';
import type { ResolverTable } from './types.js';

/** The resolver of every operation of the contract's endpoint table. */
export const RESOLVERS: ResolverTable<Endpoints> = { ...DATA_RESOLVERS, addAudienceMember, submitLead };
