package state

// RawValue returns the bytes stored under allocID[/task-<task>]/key, nil
// if missing (for the tests of package state_test).
func RawValue(d *DB, allocID, task, key string) ([]byte, error) {
	vals, err := d.be.get(allocID, task, key)
	if err != nil {
		return nil, err
	}
	return vals[0], nil
}
