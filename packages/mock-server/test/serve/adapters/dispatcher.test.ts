import { dispatcherAdapter } from '../../support/adapters.js';
import { describeConformance } from '../../support/conformance.js';

describeConformance(dispatcherAdapter);
