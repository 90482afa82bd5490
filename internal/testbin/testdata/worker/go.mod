module example.com/worker

go 1.26.0
