// Package alloc holds the suite's alloc runner properties (SPEC §7,
// AR-7..AR-10, DATA-6..DATA-8): ClientStatus at every instant, restart
// policy, kill rules and order, lifecycle start order, the update queue,
// task events.
package alloc
