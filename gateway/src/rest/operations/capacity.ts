/** Operations behind the capacity routes. */
const SLOT_CONFIG_FIELDS = /* GraphQL */ `
  fragment SlotConfigFields on SlotConfig {
    slotMinutes
    openingHours {
      weekday
      intervals {
        open
        close
      }
    }
    maxCoversPerSlot
    defaultMealMinutes
    timeZone
    turnTimes {
      maxCovers
      minutes
    }
    reseat
    reseatFreezeMinutes
    shortenedMinMinutes
    promemoria {
      orePrima
    }
    reminders {
      hoursBefore
    }
    remindersUpdatedAt
    customized
    updatedAt
  }
`;

const CATEGORY_FIELDS = /* GraphQL */ `
  fragment ProductionCategoryFields on ProductionCategory {
    id
    name
    capacityPerSlot
    createdAt
    updatedAt
  }
`;

export const capacityOperations = {
  GetSlotConfig: `query GetSlotConfig { slotConfig { ...SlotConfigFields } } ${SLOT_CONFIG_FIELDS}`,
  UpdateSlotConfig: `mutation UpdateSlotConfig($input: SlotConfigInput!) { updateSlotConfig(input: $input) { ...SlotConfigFields } } ${SLOT_CONFIG_FIELDS}`,
  ListProductionCategories: `query ListProductionCategories { productionCategories { ...ProductionCategoryFields } } ${CATEGORY_FIELDS}`,
  GetProductionCategory: `query GetProductionCategory($id: ID!) { productionCategory(id: $id) { ...ProductionCategoryFields } } ${CATEGORY_FIELDS}`,
  CreateProductionCategory: `mutation CreateProductionCategory($input: ProductionCategoryInput!) { createProductionCategory(input: $input) { ...ProductionCategoryFields } } ${CATEGORY_FIELDS}`,
  UpdateProductionCategory: `mutation UpdateProductionCategory($id: ID!, $input: ProductionCategoryPatch!) { updateProductionCategory(id: $id, input: $input) { ...ProductionCategoryFields } } ${CATEGORY_FIELDS}`,
  DeleteProductionCategory: `mutation DeleteProductionCategory($id: ID!) { deleteProductionCategory(id: $id) { id deleted } }`,
  CapacitySlots: `query CapacitySlots($date: String!) {
    slots(date: $date) {
      start end startsAt endsAt maxCovers coversBooked coversAvailable kitchenCovers coversBookable arrivals coversSeated
    }
  }`,
} as const;
