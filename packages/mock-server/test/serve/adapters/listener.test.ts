import { listenerAdapter } from '../../support/adapters.js';
import { describeConformance } from '../../support/conformance.js';

describeConformance(listenerAdapter);
