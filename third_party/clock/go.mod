module github.com/benbjohnson/clock

go 1.18
