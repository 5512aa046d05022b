/** Operations behind the capacity routes. */
import {
  CAPACITY_SLOT_FIELDS,
  DELETE_PRODUCTION_CATEGORY_RESULT_FIELDS,
  PRODUCTION_CATEGORY_FIELDS,
  SLOT_CONFIG_FIELDS,
} from '../generated/fragments.js';

export const capacityOperations = {
  GetSlotConfig: `query GetSlotConfig { slotConfig { ...SlotConfigFields } } ${SLOT_CONFIG_FIELDS}`,
  UpdateSlotConfig: `mutation UpdateSlotConfig($input: SlotConfigInput!) { updateSlotConfig(input: $input) { ...SlotConfigFields } } ${SLOT_CONFIG_FIELDS}`,
  ListProductionCategories: `query ListProductionCategories { productionCategories { ...ProductionCategoryFields } } ${PRODUCTION_CATEGORY_FIELDS}`,
  GetProductionCategory: `query GetProductionCategory($id: ID!) { productionCategory(id: $id) { ...ProductionCategoryFields } } ${PRODUCTION_CATEGORY_FIELDS}`,
  CreateProductionCategory: `mutation CreateProductionCategory($input: ProductionCategoryInput!) { createProductionCategory(input: $input) { ...ProductionCategoryFields } } ${PRODUCTION_CATEGORY_FIELDS}`,
  UpdateProductionCategory: `mutation UpdateProductionCategory($id: ID!, $input: ProductionCategoryPatch!) { updateProductionCategory(id: $id, input: $input) { ...ProductionCategoryFields } } ${PRODUCTION_CATEGORY_FIELDS}`,
  DeleteProductionCategory: `mutation DeleteProductionCategory($id: ID!) { deleteProductionCategory(id: $id) { ...DeleteProductionCategoryResultFields } } ${DELETE_PRODUCTION_CATEGORY_RESULT_FIELDS}`,
  CapacitySlots: `query CapacitySlots($date: LocalDate!) { slots(date: $date) { ...CapacitySlotFields } } ${CAPACITY_SLOT_FIELDS}`,
} as const;
