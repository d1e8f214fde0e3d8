// @ts-check
// The bundled games' rule options as the lobby offers them: a readable name (a message id of the string
// table) and the variants each applies to. An option of a game not listed here (a third-party game's) is
// offered in every variant under its own name, spaces for underscores.

/**
 * A rule option as GET /api/games describes it.
 * @typedef {{name: string, schema?: any, default?: any, help?: string}} RuleOption
 */
/**
 * A variant as GET /api/games describes it: the options it sets.
 * @typedef {{name: string, min_seats: number, max_seats: number, options: Record<string, any>}} Variant
 */

/** Per game and option: its name on the form, and the variants it applies to (all where not said). */
/** @type {Record<string, Record<string, {label: string, only?: string[]}>>} */
export const RULE_OPTIONS = {
  gophers: {
    removed_values: { label: "Supply values taken out of the box" },
    bank: { label: "The bank", only: ["beginner"] },
    end: { label: "When the end is checked" },
  },
  kings: {
    end: { label: "When the match ends" },
  },
  mordred: {
    warriors: { label: "Warriors in Mordred's supply" },
    road_forward: { label: "Road spaces ahead of the dragon" },
    road_back: { label: "Road spaces behind the dragon" },
    used_up: { label: "When used-up buildings end the game" },
    siege: { label: "Whose buildings warriors may besiege" },
  },
  saboteur: {
    gold_cards: { label: "Gold cards drawn per", only: ["standard"] },
    next_starter: { label: "Who starts the next round" },
    pass_discards: { label: "Cards a pass may discard", only: ["deluxe"] },
    broken_tools_forfeit: { label: "A broken tool forfeits the gold", only: ["standard"] },
    gold_pass: { label: "Direction the gold cards pass", only: ["standard"] },
    saboteur_pay: { label: "How winning saboteurs are paid", only: ["standard"] },
    round_end: { label: "When a round without the gold ends" },
    geologists: { label: "Geologists and crystals", only: ["deluxe"] },
  },
};

/**
 * The options the lobby's form offers for `variant` of `game`: those no variant sets (the variant list
 * chooses those) and that apply to this variant.
 * @param {string} game
 * @param {Variant[]} variants every variant of the game
 * @param {string} variant the chosen one
 * @param {RuleOption[]} options every option of the game
 * @returns {RuleOption[]}
 */
export function offered(game, variants, variant, options) {
  const byVariant = new Set(variants.flatMap((v) => Object.keys(v.options)));
  const known = RULE_OPTIONS[game] || {};
  return options.filter((o) => {
    if (byVariant.has(o.name)) return false;
    const only = known[o.name] && known[o.name].only;
    return !only || only.includes(variant);
  });
}

/**
 * An option's name on the form (an English message id): the readable one, else its own with spaces.
 * @param {string} game
 * @param {string} name
 * @returns {string}
 */
export function optionLabel(game, name) {
  const known = RULE_OPTIONS[game] && RULE_OPTIONS[game][name];
  if (known) return known.label;
  const spaced = name.replace(/_/g, " ");
  return spaced.charAt(0).toUpperCase() + spaced.slice(1);
}
