import { defineResource } from '../common/define/operation';

import get from './get.operation';

// Each operation is one entry here; its own file declares the rest (menu entry, parameters; what it does to money is its catalogue line).
export const { operations, description } = defineResource('balance', 'Balance', 'get', { get });
